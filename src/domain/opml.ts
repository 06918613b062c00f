/** A feed outline read from OPML, with the groups (outlines without `xmlUrl`) it is nested in. */
export interface OpmlEntry {
  xmlUrl: string;
  title: string;
  /** Names of the enclosing groups, outermost first; empty at the top level. */
  groups: string[];
}

/** What became of one feed outline of an import. */
export interface OpmlOutcome {
  xml_url: string;
  title: string;
  outcome: 'created' | 'existing' | 'failed';
  feed_id: string | null;
  /** The group outline (bundle) it was in. */
  bundle: string | null;
  error: { code: string; message: string } | null;
}

/** An OPML import and its progress: `done` of `total` feed outlines, one outcome each so far. */
export interface OpmlImport {
  /** `imp_` + 16 url-safe characters. */
  id: string;
  accountId: string;
  status: 'running' | 'finished';
  total: number;
  done: number;
  outcomes: OpmlOutcome[];
  startedAt: string;
  finishedAt: string | null;
}

export const isOpmlImportId = (id: string): boolean => id.startsWith('imp_');
