import fc from 'fast-check';
import t from 'tap';
import { isoString, parseDate } from '../../workers/shared/dates.js';

t.test('RFC 822 dates in the variants real feeds use', async (t) => {
  const cases: [string, string][] = [
    ['Tue, 10 Jun 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 +0200', '2003-06-10T02:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 -0430', '2003-06-10T08:30:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 EST', '2003-06-10T09:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 PDT', '2003-06-10T11:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 UT', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 Z', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['10 Jun 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Mon, 10 Jun 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Tue, 3 Jun 2003 04:00:00 GMT', '2003-06-03T04:00:00.000Z'],
    ['Tue, 10 Jun 03 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 June 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 A', '2003-06-10T04:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 GMT+0100', '2003-06-10T03:00:00.000Z'],
    ['Jun 10, 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['Tuesday, 10 Jun 2003 04:00:00 GMT', '2003-06-10T04:00:00.000Z'],
    ['tue. 10 jun 2003 04:00:00 gmt', '2003-06-10T04:00:00.000Z'],
    ['Tue Jun 10 04:00:00 PDT 2003', '2003-06-10T11:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 -0430 (Newfoundland-ish)', '2003-06-10T08:30:00.000Z'],
    ['Tue, 31 Dec 2003 23:30:00 -0100', '2004-01-01T00:30:00.000Z'],
    ['Sun, 29 Feb 2004 12:00:00 GMT', '2004-02-29T12:00:00.000Z'],
    // North American zones without standard or daylight time, and the tz database's name for UTC.
    ['Mon, 26 Jan 2004 16:31:00 ET', '2004-01-26T21:31:00.000Z'],
    ['Mon, 26 Jan 2004 16:31:00 PT', '2004-01-27T00:31:00.000Z'],
    ['Mon, 26 Jan 2004 16:31:00 AT', '2004-01-26T20:31:00.000Z'],
    ['Wed, 19 Aug 2009 18:28:00 Etc/GMT', '2009-08-19T18:28:00.000Z'],
    // The month as a number, year first (Perforce and a few blog engines).
    ['Fri, 2006/09/15 08:19:53 EDT', '2006-09-15T12:19:53.000Z'],
    ['2006/09/15', '2006-09-15T00:00:00.000Z'],
  ];
  for (const [input, expected] of cases) t.equal(parseDate(input), expected, input);
});

t.test('ISO 8601 and RFC 3339 dates', async (t) => {
  const cases: [string, string][] = [
    ['2003-12-13T18:30:02Z', '2003-12-13T18:30:02.000Z'],
    ['2003-12-13T18:30:02.25Z', '2003-12-13T18:30:02.250Z'],
    ['2003-12-13T18:30:02+01:00', '2003-12-13T17:30:02.000Z'],
    ['2003-12-13T18:30:02-0500', '2003-12-13T23:30:02.000Z'],
    ['2003-12-13T18:30:02', '2003-12-13T18:30:02.000Z'],
    ['2003-12-13 18:30:02Z', '2003-12-13T18:30:02.000Z'],
    ['2003-12-13T18:30Z', '2003-12-13T18:30:00.000Z'],
    ['2003-12-13', '2003-12-13T00:00:00.000Z'],
    ['20031213T183002Z', '2003-12-13T18:30:02.000Z'],
  ];
  for (const [input, expected] of cases) t.equal(parseDate(input), expected, input);
});

t.test("dates written with a locale's month and weekday names, and Korean blog engines' forms", async (t) => {
  const cases: [string, string][] = [
    ['Mi, 12 Okt 2022 10:00:00 +0200', '2022-10-12T08:00:00.000Z'],
    ['Mo, 3. März 2025 09:15:00 +0100', '2025-03-03T08:15:00.000Z'],
    ['mer., 12 oct. 2022 10:00:00 +0200', '2022-10-12T08:00:00.000Z'],
    ['jeu., 3 juil. 2025 10:00:00 GMT', '2025-07-03T10:00:00.000Z'],
    ['lun., 2 juin 2025 10:00:00 GMT', '2025-06-02T10:00:00.000Z'],
    ['Lun, 15 Ene 2024 12:00:00 GMT', '2024-01-15T12:00:00.000Z'],
    ['Sab, 7 Dic 2024 12:00:00 GMT', '2024-12-07T12:00:00.000Z'],
    ['Ter, 1 Set 2020 12:00:00 GMT', '2020-09-01T12:00:00.000Z'],
    ['ср, 15 мая 2024 12:00:00 +0300', '2024-05-15T09:00:00.000Z'],
    ['Κυρ, 11 Ιούλ 2004 12:00:00 EST', '2004-07-11T17:00:00.000Z'],
    ['Τρι, 15 Ιουνίου 2004 12:00:00 GMT', '2004-06-15T12:00:00.000Z'],
    ['2004-július-13T9:15-05:00', '2004-07-13T14:15:00.000Z'],
    ['2004년 05월 28일  01:31:15', '2004-05-27T16:31:15.000Z'],
    ['2004-05-25 오후 11:23:17', '2004-05-25T14:23:17.000Z'],
    ['2004-05-25 오전 12:05:00', '2004-05-24T15:05:00.000Z'],
  ];
  for (const [input, expected] of cases) t.equal(parseDate(input), expected, input);
  t.equal(parseDate('Mi, 12 Foo 2022 10:00:00 +0200'), null, 'a word no language names a month by is still no date');
  t.equal(parseDate('Mi, 12 Ju 2022 10:00:00 +0200'), null, 'two letters name no month');
});

t.test('garbage and impossible dates give no date instead of a guess', async (t) => {
  for (const input of [
    '',
    'yesterday',
    'Tue, 31 Feb 2003 04:00:00 GMT',
    '2003-13-01T00:00:00Z',
    '12/06/2003',
    'Tue, 10 Foo 2003 04:00:00 GMT',
    '2003-06-10T25:00:00Z',
    // Zone names are looked up in a table: a name the table's prototype has is no zone.
    'Tue, 10 Jun 2003 04:00:00 constructor',
    'Tue, 10 Jun 2003 04:00:00 __proto__',
    // Offsets no place has: before, the year 10000 came out of the first.
    '9999-12-31T23:59:59-99:99',
    '2003-06-10T04:00:00+15:00',
    'Tue, 10 Jun 2003 04:00:00 +0175',
    // An offset with no time of day to apply to.
    '2013-01-27-01',
    '2006/13/15',
  ]) {
    t.equal(parseDate(input), null, JSON.stringify(input));
  }
});

t.test('dates are written as toISOString writes them, at every instant it can write', async (t) => {
  const limit = 8.64e15;
  fc.assert(
    fc.property(
      fc.oneof(fc.integer({ min: -limit, max: limit }), fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })),
      (time) => {
        t.equal(isoString(time), new Date(time).toISOString(), String(time));
      },
    ),
    { numRuns: 2000 },
  );
  t.equal(isoString(limit + 1), null, 'past the last instant a Date holds');
  t.equal(isoString(Number.NaN), null, 'NaN');
});

// Found by fuzzing (test/fuzz/seeds/dates/many_open_parentheses): stripping a zone's trailing
// comment with a backtracking pattern took time quadratic in the number of `(`, seconds at 200 KB.
t.test('a date of many open parentheses takes time linear in its length', async (t) => {
  const date = (units: number) => `13 Dez 2003 18:30 MEZ${'(3 Dez 2003 18:31'.repeat(units)}`;
  // Time per call, the small and the large input measured by turns so a busy moment of the
  // machine falls on both; the median of 7 rounds' ratios.
  const perCall = (value: string, calls: number) => {
    const started = performance.now();
    for (let call = 0; call < calls; call += 1) parseDate(value);
    return (performance.now() - started) / calls;
  };
  const small = date(2_000);
  const large = date(8_000);
  perCall(small, 10);
  const ratios = Array.from({ length: 7 }, () => perCall(large, 3) / Math.max(perCall(small, 10), 0.01)).sort((a, b) => a - b);
  const ratio = ratios[3] ?? Infinity;
  // Linear: about 4 (four times the input); quadratic: about 16.
  t.ok(ratio < 10, `4× the input took ${ratio.toFixed(1)}× the time`);
});
