/** A source date further ahead than this is not trusted (clock skew and scheduled posts aside). */
export const futureDateTolerance = 24 * 60 * 60 * 1000;

/**
 * The date an item is shown with. Policy: the source's own date when it has one that is not more
 * than a day in the future of when we first saw the item; otherwise the time we first saw it. An
 * item never gets an invented date from elsewhere, and a far-future date cannot pin it to the top.
 */
export function publishedAt(sourceDate: string | null, firstSeenAt: string): string {
  if (sourceDate === null) return firstSeenAt;
  const source = Date.parse(sourceDate);
  if (Number.isNaN(source) || source - Date.parse(firstSeenAt) > futureDateTolerance) return firstSeenAt;
  return sourceDate;
}
