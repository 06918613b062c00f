/**
 * How deep the XML documents feedmill reads may nest: feeds (deeper is `not_a_feed`) and OPML
 * uploads (deeper is `validation_failed`). Real ones are shallow (a feed's item content a few
 * levels, an OPML file a few levels of outline groups). A reader refuses at the first element past
 * this depth and reads no further, so a document of 100,000 nested elements costs what its first
 * hundred levels cost.
 */
export const maxXmlDepth = 100;
