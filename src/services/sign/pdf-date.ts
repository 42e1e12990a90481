/**
 * PDF date strings (ISO 32000-1 §7.9.4) for the signature dictionary's /M. Always UTC ("Z"),
 * because the route passes the service clock and a reader should not have to guess a zone.
 */
export function formatPdfDate(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return (
    `D:${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`
  );
}
