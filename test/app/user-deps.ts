import { builtinPlatformRules } from '../../src/domain/platforms/builtin-platform-rules.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { openEmbeddedStore } from '../../src/adapters/embedded-store/index.js';
import { createLocalAuthThrottle } from '../../src/adapters/local-auth-throttle/local-auth-throttle.js';
import type { SignInDeps } from '../../src/app/sessions.js';
import type { AppDeps } from '../../src/app/deps.js';
import { repoRoot } from '../fixtures/repo-root.js';

/** What the user, session and key use cases need: the real embedded store, and a clock the test moves. */
export interface UserDeps extends SignInDeps, Pick<AppDeps, 'keys'> {
  /** Moves the clock forward. */
  advance(ms: number): void;
}

export function userDeps(
  t: Test,
  settings: { sessionIdleSeconds?: number; sessionMaxAgeSeconds?: number; freeFailures?: number; freeSources?: number } = {},
): UserDeps {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-users-'));
  const store = openEmbeddedStore({ file: join(dir, 'feedmill.sqlite'), schemaDir: join(repoRoot, 'schema', 'embedded') });
  t.teardown(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let now = Date.parse('2026-11-25T10:00:00.000Z');
  let counter = 0;
  return {
    users: store.users,
    sessions: store.sessions,
    keys: store.keys,
    clock: { now: () => new Date(now) },
    // Distinct bytes per call, so every token differs, and known ones, so a test can tell them apart.
    random: (size) => new Uint8Array(size).fill(++counter % 256),
    authThrottle: createLocalAuthThrottle({ freeFailures: settings.freeFailures ?? 5, freeSources: settings.freeSources ?? 50 }),
    settings: {
      publicUrl: 'https://feeds.example.test',
      poll: { minSeconds: 60, maxSeconds: 3600 },
      secretKey: Buffer.alloc(32),
      feedDisableAfterSeconds: 7 * 24 * 3600,
      platformRules: builtinPlatformRules,
      discoverTimeoutMs: 5000,
      eventStreamsPerAccount: 20,
      webhookDisableAfterSeconds: 3 * 24 * 3600,
      sessionIdleSeconds: settings.sessionIdleSeconds ?? 86_400,
      sessionMaxAgeSeconds: settings.sessionMaxAgeSeconds ?? 14 * 86_400,
      fullText: { perHost: 2, hostPauseMs: 0, perRefresh: 50, maxWaitSeconds: 600 },
    },
    advance(ms) {
      now += ms;
    },
  };
}
