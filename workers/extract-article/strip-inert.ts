/**
 * Elements with no article text in them, cut from the page's HTML before it is parsed, so the DOM
 * the extractor and Readability walk holds neither them nor their text: scripts (except JSON-LD,
 * which the metadata reads), styles, inline SVG, templates and comments. A page of 600 kB is often
 * two-thirds script and SVG. Each cut ends at the first closing tag after it, as the HTML tokenizer
 * ends these raw-text elements; an unclosed one runs to the end of the page, as it does in a
 * browser. One forward scan with indexOf: linear, whatever the page.
 */
const cuts: readonly { open: string; close: string }[] = [
  { open: '<script', close: '</script' },
  { open: '<style', close: '</style' },
  { open: '<svg', close: '</svg' },
  { open: '<template', close: '</template' },
  { open: '<!--', close: '-->' },
];

const jsonLd = /^<script\b[^>]*\btype\s*=\s*["']?application\/ld\+json/i;

export function stripInert(html: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let copied = 0;
  let at = 0;
  // Where each cut next opens; searched again only once the scan has passed it, so every
  // pattern's occurrences are visited once in all.
  const next = cuts.map(() => -2);
  for (;;) {
    // The nearest start of any cut, past `at`.
    let start = -1;
    let cut: { open: string; close: string } | undefined;
    for (let i = 0; i < cuts.length; i++) {
      const candidate = cuts[i] as { open: string; close: string };
      let found = next[i] as number;
      if (found !== -1 && found < at) {
        found = lower.indexOf(candidate.open, at);
        next[i] = found;
      }
      if (found !== -1 && (start === -1 || found < start)) {
        start = found;
        cut = candidate;
      }
    }
    if (start === -1 || cut === undefined) break;
    const after = lower.charCodeAt(start + cut.open.length);
    // `<scripts>` or `<style-guide>` are other elements; a tag name ends at space, `>`, `/` or the end.
    const tagEnds = cut.open === '<!--' || Number.isNaN(after) || after === 0x3e || after === 0x2f || after <= 0x20;
    if (!tagEnds) {
      at = start + cut.open.length;
      continue;
    }
    const close = lower.indexOf(cut.close, start + cut.open.length);
    if (cut.open === '<script' && jsonLd.test(html.slice(start, start + 200))) {
      // Kept, and skipped whole: a `<!--` or `<script>` written inside its JSON strings is text.
      at = close === -1 ? html.length : close;
      continue;
    }
    const closeEnd = close === -1 ? html.length : cut.close === '-->' ? close + 3 : endOfTag(lower, close);
    out += html.slice(copied, start);
    copied = closeEnd;
    at = closeEnd;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

function endOfTag(lower: string, from: number): number {
  const end = lower.indexOf('>', from);
  return end === -1 ? lower.length : end + 1;
}
