/**
 * Month names in the languages feeds are written in. A feed's dates should be in English (RFC
 * 822), but a server formatting them with its locale's names (PHP's strftime after setlocale,
 * .NET's current culture) writes `Mi, 12 Okt 2022` or `Κυρ, 11 Ιούλ 2004`. Names are compared
 * without accents and case, by their first letters, so the full name, its abbreviation and its
 * genitive (`Ιουλίου`) all read.
 */

/** Where the first three letters name two months (`juin`/`juillet`, `Ιούνιος`/`Ιούλιος`), the first four. */
const byFour: ReadonlyMap<string, number> = new Map([
  ['juin', 6],
  ['juil', 7],
  ['ιουν', 6],
  ['ιουλ', 7],
]);

const byThree = new Map<string, number>();
const add = (month: number, ...prefixes: string[]): void => {
  for (const prefix of prefixes) byThree.set(prefix, month);
};
// English first; then German, French, Spanish, Italian, Portuguese, Dutch, the Scandinavian
// languages, Polish, Hungarian, Russian and Greek, where they differ.
add(1, 'jan', 'ene', 'gen', 'sty', 'янв', 'ιαν');
add(2, 'feb', 'fev', 'lut', 'фев', 'φεβ');
add(3, 'mar', 'mrz', 'maa', 'mrt', 'мар', 'μαρ');
add(4, 'apr', 'avr', 'abr', 'kwi', 'апр', 'απρ');
add(5, 'may', 'mai', 'mag', 'mei', 'maj', 'маи', 'мая', 'μαι');
add(6, 'jun', 'giu', 'cze', 'июн');
add(7, 'jul', 'lug', 'lip', 'июл');
add(8, 'aug', 'aou', 'ago', 'sie', 'авг', 'αυγ');
add(9, 'sep', 'set', 'wrz', 'sze', 'сен', 'σεπ');
add(10, 'oct', 'okt', 'ott', 'out', 'paz', 'окт', 'οκτ');
add(11, 'nov', 'lis', 'ноя', 'νοε');
add(12, 'dec', 'dez', 'dic', 'gru', 'дек', 'δεκ');

/** The number of the month a name or abbreviation names (`Jun`, `June`, `Juni`, `juin`); undefined for anything else. */
export function monthNamed(name: string | undefined): number | undefined {
  if (name === undefined || name.length < 3) return undefined;
  // Nearly every feed's names are found as written; only the others are decomposed.
  return byPrefix(name.toLowerCase()) ?? byPrefix(withoutAccents(name));
}

function byPrefix(lower: string): number | undefined {
  return byFour.get(lower.slice(0, 4)) ?? byThree.get(lower.slice(0, 3));
}

/** Lower case with the combining marks of its canonical decomposition removed: `Mär` → `mar`, `Ιούλ` → `ιουλ`, `мая` stays. */
function withoutAccents(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
