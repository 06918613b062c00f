/**
 * The article read from the page behind an item's link (the "full article text" of a teaser
 * feed). Field names are the REST/webhook spelling the feature exposes.
 */
export interface ExtractedArticle {
  title: string | null;
  byline: string | null;
  /** ISO 8601. */
  published: string | null;
  lead_image: string | null;
  language: string | null;
  /** Sanitised: only allowed elements and attributes, every URL absolute and safe. */
  content_html: string;
  content_text: string;
}
