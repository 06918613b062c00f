/** A feed outline read from OPML, with the groups (outlines without `xmlUrl`) it is nested in. */
export interface OpmlEntry {
  xmlUrl: string;
  title: string;
  /** Names of the enclosing groups, outermost first; empty at the top level. */
  groups: string[];
}
