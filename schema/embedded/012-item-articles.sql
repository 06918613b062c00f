-- feedmill embedded store (SQLite), version 12: full text. An item's article, kept beside the item
-- rather than in its `data`: a refresh commits items and an article job writes articles, and
-- neither ever overwrites the other's work. `data` is the ItemArticle as JSON.
CREATE TABLE item_articles (
  feed_id TEXT NOT NULL,
  key     TEXT NOT NULL,
  data    TEXT NOT NULL,
  PRIMARY KEY (feed_id, key)
) STRICT;

-- Moves on every article saved: hosted documents of a full-text feed are cached by it.
CREATE TABLE article_versions (
  feed_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT;
