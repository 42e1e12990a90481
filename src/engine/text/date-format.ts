/**
 * Date-time pictures of the \@ switch (ECMA-376 Part 1, §17.16.4.1): d, dd, ddd, dddd; M, MM,
 * MMM, MMMM; yy, yyyy; h, hh (12-hour), H, HH; m, mm; s, ss; am/pm or AM/PM; 'quoted text'.
 * Used for DATE/TIME fields that carry no cached result, with the document's own dates, so the
 * output never depends on the clock. English names: the service has no locale of its own.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Word's defaults for DATE and TIME without \@ in an English document. */
export const DEFAULT_DATE_PICTURE = 'M/d/yyyy';
export const DEFAULT_TIME_PICTURE = 'h:mm am/pm';

/** Formats the UTC date-time of `iso` with `picture`. */
export function formatDate(iso: string, picture: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const weekday = date.getUTCDay();
  const hours = date.getUTCHours();
  const minutes = date.getUTCMinutes();
  const seconds = date.getUTCSeconds();
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  const pad = (value: number) => String(value).padStart(2, '0');

  let out = '';
  let i = 0;
  while (i < picture.length) {
    const c = picture[i] as string;
    if (c === "'") {
      const end = picture.indexOf("'", i + 1);
      const stop = end === -1 ? picture.length : end;
      out += picture.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    const lower = picture.slice(i, i + 5).toLowerCase();
    if (lower === 'am/pm') {
      const upper = picture[i] === 'A';
      const marker = hours < 12 ? 'AM' : 'PM';
      out += upper ? marker : marker.toLowerCase();
      i += 5;
      continue;
    }
    let run = 1;
    while (picture[i + run] === c) run++;
    switch (c) {
      case 'd':
        out += run === 1 ? String(day) : run === 2 ? pad(day) : run === 3 ? DAYS[weekday]?.slice(0, 3) : DAYS[weekday];
        break;
      case 'M':
        out +=
          run === 1
            ? String(month + 1)
            : run === 2
              ? pad(month + 1)
              : run === 3
                ? MONTHS[month]?.slice(0, 3)
                : MONTHS[month];
        break;
      case 'y':
        out += run <= 2 ? pad(year % 100) : String(year);
        break;
      case 'h':
        out += run === 1 ? String(twelve) : pad(twelve);
        break;
      case 'H':
        out += run === 1 ? String(hours) : pad(hours);
        break;
      case 'm':
        out += run === 1 ? String(minutes) : pad(minutes);
        break;
      case 's':
        out += run === 1 ? String(seconds) : pad(seconds);
        break;
      default:
        out += c.repeat(run);
    }
    i += run;
  }
  return out;
}
