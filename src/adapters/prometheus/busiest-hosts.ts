/** What a host's fetch counts under, and a host that just lost its own series, if any. */
export interface HostLabel {
  label: string;
  demoted?: string;
}

export interface BusiestHosts {
  /** Counts one fetch of `host`: its own name while among the busiest, else `other`. */
  note(host: string): HostLabel;
}

/**
 * Keeps the label set of per-host metrics bounded: the `named` busiest hosts get their own label,
 * every other host counts as `other`. Busiest is estimated with the Space-Saving algorithm
 * (Metwally, Agrawal, El Abbadi 2005) over `tracked` counters, so memory stays fixed however many
 * hosts there are; a host's count may be overestimated by at most the smallest tracked count.
 *
 * A host takes the place of the least busy named host only once it has clearly overtaken it (by an
 * eighth), so two hosts of about equal traffic do not swap their series on every fetch.
 * @param named @default 50
 * @param tracked @default 4 × named
 */
export function createBusiestHosts(named = 50, tracked = named * 4): BusiestHosts {
  const counts = new Map<string, number>();
  const names = new Set<string>();
  const smallest = (hosts: Iterable<string>): [string, number] | undefined => {
    let least: [string, number] | undefined;
    for (const host of hosts) {
      const count = counts.get(host) ?? 0;
      if (!least || count < least[1]) least = [host, count];
    }
    return least;
  };
  const count = (host: string): number => {
    const known = counts.get(host);
    if (known !== undefined) return counts.set(host, known + 1).get(host) ?? 0;
    if (counts.size < tracked) return counts.set(host, 1).get(host) ?? 0;
    // Space-Saving: the new host replaces the least counted one that has no series of its own, and inherits its count.
    const evicted = smallest([...counts.keys()].filter((key) => !names.has(key)));
    if (!evicted) return 1;
    counts.delete(evicted[0]);
    return counts.set(host, evicted[1] + 1).get(host) ?? 0;
  };
  return {
    note(host) {
      const seen = count(host);
      if (names.has(host)) return { label: host };
      if (names.size < named) {
        names.add(host);
        return { label: host };
      }
      const least = smallest(names);
      if (!least || seen <= least[1] + Math.max(1, least[1] / 8)) return { label: 'other' };
      names.delete(least[0]);
      names.add(host);
      return { label: host, demoted: least[0] };
    },
  };
}
