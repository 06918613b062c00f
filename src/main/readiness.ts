/**
 * `/readyz` for every role: ready when each dependency the process needs answers in time. A probe
 * that hangs (a Redis that accepts connections and never replies) counts as not ready, and is not
 * waited for past `timeoutMs`, so the orchestrator's own probe timeout never fires first.
 */
export function readinessCheck(
  checks: Record<string, () => Promise<unknown>>,
  timeoutMs: number,
  onFailure: (part: string, error: unknown) => void,
): () => Promise<boolean> {
  const within = async (part: string, check: () => Promise<unknown>): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([check(), late]);
      return true;
    } catch (error) {
      onFailure(part, error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return async () => (await Promise.all(Object.entries(checks).map(([part, check]) => within(part, check)))).every(Boolean);
}
