/** Reads a PDF date string (ISO 32000-1 §7.9.4: D:YYYYMMDDHHmmSSOHH'mm') as an ISO 8601 instant. */
export function parsePdfDate(text: string): string | undefined {
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?/.exec(
    text.trim(),
  );
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? `${sign}${oh}:${om}` : 'Z';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
