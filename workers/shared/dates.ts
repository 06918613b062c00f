import { monthNamed } from './month-names.js';

/**
 * Feed dates to ISO 8601 UTC with milliseconds, or null. Two grammars, both explicit:
 * RFC 822/1123/2822 with the variants real feeds have, and ISO 8601 / RFC 3339 / W3C-DTF.
 * Nothing is handed to `Date.parse`, whose guesses on garbage are implementation-defined.
 */
export function parseDate(input: string | undefined): string | null {
  if (input === undefined) return null;
  const value = input.trim();
  if (value === '') return null;
  return parseIso(value) ?? parseRfc822(value);
}

// YYYY[-MM[-DD]][(T| )hh:mm[:ss[.fff]]][zone]; basic format (no separators) too.
const isoPattern =
  /^(\d{4})(?:-?(\d{2})(?:-?(\d{2})(?:[Tt ]\s*(\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

function parseIso(value: string): string | null {
  const m = isoPattern.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h, mi = '00', s = '00', fraction = '', zone = ''] = m;
  const offset = isoZoneMinutes(zone);
  // An offset belongs to a time of day: `2013-01-27-01` is no date the standard knows.
  if (offset === undefined || (h === undefined && /^[+-]/.test(zone))) return null;
  const millis = Math.round(Number(`0.${fraction || '0'}`) * 1000);
  return build(Number(y), Number(mo), Number(d), Number(h ?? '00'), Number(mi), Number(s), millis, offset);
}

/** The zone's offset in minutes; undefined for one no place has (`-99:99`). */
function isoZoneMinutes(zone: string): number | undefined {
  if (zone === '' || /^(?:z|utc|gmt)$/i.test(zone)) return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return offsetMinutes(sign, Number(digits.slice(0, 2)), Number(digits.slice(2, 4) || '0'));
}

/** No place is more than 14 hours from UTC (Kiribati is +14:00), and an hour has 60 minutes. */
function offsetMinutes(sign: 1 | -1, hours: number, minutes: number): number | undefined {
  return hours > 14 || minutes > 59 ? undefined : sign * (hours * 60 + minutes);
}

/** RFC 822 §5.1 zones, the North American names it lists, and common others; unknown names are UTC, as in Go. */
const namedZones: ReadonlyMap<string, number> = new Map(
  Object.entries({
    ut: 0,
    utc: 0,
    gmt: 0,
    z: 0,
    wet: 0,
    est: -300,
    edt: -240,
    cst: -360,
    cdt: -300,
    mst: -420,
    mdt: -360,
    pst: -480,
    pdt: -420,
    akst: -540,
    akdt: -480,
    hst: -600,
    ast: -240,
    adt: -180,
    nst: -210,
    ndt: -150,
    bst: 60,
    ist: 60,
    cet: 60,
    cest: 120,
    met: 60,
    mest: 120,
    eet: 120,
    eest: 180,
    west: 60,
    msk: 180,
    jst: 540,
    kst: 540,
    hkt: 480,
    sgt: 480,
    awst: 480,
    acst: 570,
    aest: 600,
    aedt: 660,
    nzst: 720,
    nzdt: 780,
    // North America's zones named without standard or daylight time, as feeds write them.
    at: -240,
    et: -300,
    ct: -360,
    mt: -420,
    pt: -480,
    // The tz database's names for UTC.
    'etc/gmt': 0,
    'etc/utc': 0,
  }),
);

// The weekday is informational (and often wrong): each pattern skips it, whatever it says.
const weekday = '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,?\\s*)?';
// [weekday[,]] day month year [time] [zone] — or the month first (Jan 2, 2006 ...).
const dayFirst = new RegExp(
  `^${weekday}(\\d{1,2})(?:st|nd|rd|th)?[\\s\\-/.]+([a-z]{3,9})\\.?,?[\\s\\-/.]+(\\d{2,4})(?:[\\s,t]+(\\d{1,2})[:.](\\d{2})(?:[:.](\\d{2})(?:\\.\\d+)?)?)?\\s*(.*)$`,
  'i',
);
const monthFirst = new RegExp(
  `^${weekday}([a-z]{3,9})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{2,4})(?:[\\s,t]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?)?\\s*(.*)$`,
  'i',
);
// Perforce and a few blog engines: `Fri, 2006/09/15 08:19:53 EDT`, the month as a number.
const slashed = new RegExp(`^${weekday}(\\d{4})/(\\d{1,2})/(\\d{1,2})(?:\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?)?\\s*(.*)$`, 'i');
const monthFirstTimeLast = new RegExp(
  `^${weekday}([a-z]{3,9})\\s+(\\d{1,2})\\s+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s+(.*?)\\s*(\\d{4})$`,
  'i',
);

function parseRfc822(value: string): string | null {
  // Each form is tried until one gives a date: "Jun 10 04:00:00 PDT 2003" also reads, month
  // first, as the year 04 with the zone ":00:00 PDT 2003", which is no zone.
  let m = dayFirst.exec(value);
  const date = m === null ? null : fromParts(m[3], monthNamed(m[2]), m[1], m[4], m[5], m[6], m[7]);
  if (date !== null) return date;
  m = monthFirst.exec(value);
  const monthFirstDate = m === null ? null : fromParts(m[3], monthNamed(m[1]), m[2], m[4], m[5], m[6], m[7]);
  if (monthFirstDate !== null) return monthFirstDate;
  m = monthFirstTimeLast.exec(value); // ANSI C asctime: "Jan  2 15:04:05 MST 2006"
  const asctime = m === null ? null : fromParts(m[7], monthNamed(m[1]), m[2], m[3], m[4], m[5], m[6]);
  if (asctime !== null) return asctime;
  m = slashed.exec(value);
  const slashedDate = m === null ? null : fromParts(m[1], Number(m[2]), m[3], m[4], m[5], m[6], m[7]);
  return slashedDate ?? parseLocalised(value);
}

// The forms above with names in any script, and a weekday in any language (`Mi, 12. Okt 2022`,
// `Κυρ, 11 Ιούλ 2004`): tried last, as a Unicode pattern costs more and few feeds need it.
const localDayFirst =
  /^(?:\p{L}{2,12}\.?,?\s+)?(\d{1,2})\.?[\s\-/.]+(\p{L}{3,12})\.?,?[\s\-/.]+(\d{2,4})(?:[\s,]+(\d{1,2})[:.](\d{2})(?:[:.](\d{2})(?:\.\d+)?)?)?\s*(.*)$/iu;
// ISO 8601's order with the month's name: `2004-július-13T9:15-05:00`.
const namedMonthIso = /^(\d{4})-(\p{L}{3,12})-(\d{1,2})(?:[Tt\s](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(.*)$/u;
// Korean blog engines: `2004년 05월 28일 01:31:15` and `2004-05-25 오후 11:23:17` (오전 AM, 오후 PM), in Korea's time.
const koreanWritten = /^(\d{4})년\s*(\d{1,2})월\s*(\d{1,2})일(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/u;
const koreanHalfDay = /^(\d{4})-(\d{1,2})-(\d{1,2})\s+(오전|오후)\s*(\d{1,2}):(\d{2})(?::(\d{2}))?$/u;
const koreaZone = '+0900';

function parseLocalised(value: string): string | null {
  let m = localDayFirst.exec(value);
  const date = m === null ? null : fromParts(m[3], monthNamed(m[2]), m[1], m[4], m[5], m[6], m[7]);
  if (date !== null) return date;
  m = namedMonthIso.exec(value);
  const iso = m === null ? null : fromParts(m[1], monthNamed(m[2]), m[3], m[4], m[5], m[6], m[7]);
  if (iso !== null) return iso;
  m = koreanWritten.exec(value);
  if (m !== null) return fromParts(m[1], Number(m[2]), m[3], m[4], m[5], m[6], koreaZone);
  m = koreanHalfDay.exec(value);
  if (m === null) return null;
  const hour = (Number(m[5]) % 12) + (m[4] === '오후' ? 12 : 0);
  return fromParts(m[1], Number(m[2]), m[3], String(hour), m[6], m[7], koreaZone);
}

function fromParts(
  year: string | undefined,
  monthNumber: number | undefined,
  day: string | undefined,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
  zone: string | undefined,
): string | null {
  if (monthNumber === undefined || year === undefined || day === undefined) return null;
  let y = Number(year);
  // RFC 2822 §4.3 obsolete 2-digit years; Go's cutoff (69) so gofeed and we agree.
  if (year.length === 2) y += y >= 69 ? 1900 : 2000;
  else if (year.length === 3) y += 1900;
  const offset = rfcZoneMinutes((zone ?? '').trim());
  if (offset === undefined) return null;
  return build(y, monthNumber, Number(day), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), 0, offset);
}

function rfcZoneMinutes(zone: string): number | undefined {
  // Most feeds write `GMT` or `+0000`: answered before any pattern runs.
  const named = namedZones.get(zone.toLowerCase());
  if (named !== undefined) return named;
  // A trailing comment such as "(PST)" or "(Pacific Standard Time)" says nothing the offset doesn't.
  const text = zone.indexOf('(') === -1 ? zone : withoutComment(zone);
  if (text === '') return 0;
  const numeric = /^(?:(?:GMT|UTC|UT)\s*)?([+-])(\d{1,2}):?(\d{2})?$/i.exec(text);
  if (numeric) return offsetMinutes(numeric[1] === '-' ? -1 : 1, Number(numeric[2]), Number(numeric[3] ?? 0));
  if (!/^[A-Za-z]{1,5}$/.test(text)) return undefined;
  // RFC 2822 §4.3: military zones were specified with the wrong sign; treat them as unknown, i.e. UTC.
  return namedZones.get(text.toLowerCase()) ?? 0;
}

/**
 * `zone` without a trailing comment, as `zone.replace(/\s*\(.*\)\s*$/, '')` gives it: from the first
 * `(` on the comment's line (`.` crosses no line break) to a `)` that ends the text. Found with
 * indexOf, because that pattern backtracks from every `(` to the end: quadratic time, seconds
 * for a 200 KB "date" of many `(` (found by fuzzing, test/fuzz/seeds/dates/).
 */
function withoutComment(zone: string): string {
  const end = zone.trimEnd();
  if (!end.endsWith(')')) return zone;
  const lineStart = Math.max(...['\n', '\r', '\u2028', '\u2029'].map((breaker) => end.lastIndexOf(breaker))) + 1;
  const open = end.indexOf('(', lineStart);
  return open === -1 ? zone : zone.slice(0, open).trimEnd();
}

function build(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offsetMinutes: number): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 24 || mi > 59 || s > 60) return null;
  // Date.UTC reads years 0–99 as 1900–1999: the calendar of that year decides whether the day exists.
  if (d > daysInMonth(y >= 0 && y <= 99 ? y + 1900 : y, mo)) return null; // 31 February
  return isoString(Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms) - offsetMinutes * 60_000);
}

const dayMs = 86_400_000;

/**
 * `new Date(time).toISOString()`, or null where that throws (NaN, beyond ±8.64e15 ms). Written
 * out for the years 0–9999, which is every feed date: the built-in cost half of a date's parse.
 * The calendar from the day count is Howard Hinnant's `civil_from_days`; the property test in
 * test/workers/parse-feed-dates.test.ts holds it to toISOString.
 */
export function isoString(time: number): string | null {
  if (!(Math.abs(time) <= 8.64e15)) return null;
  const days = Math.floor(time / dayMs);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(time).toISOString();
  const ms = time - days * dayMs;
  return (
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:` +
    `${pad(Math.floor(ms / 1000) % 60, 2)}.${pad(ms % 1000, 3)}Z`
  );
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return monthDays[month - 1] as number;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}
