/**
 * Switches that leave Chromium unable to reach the network by itself. Every request a page makes
 * is meant to be fulfilled by our fetcher (route-through-fetcher.ts); these make sure that whatever
 * escapes interception — a preconnect, a DNS prefetch, a WebRTC candidate, a request Chromium makes
 * for itself — reaches nothing:
 * - every host name (IP literals included) resolves to "not found";
 * - every connection must go through a proxy whose own name then does not resolve;
 * - `<-loopback>` removes Chromium's implicit bypass of that proxy for localhost and 127.0.0.1
 *   (net/docs/proxy.md, "Overriding the implicit bypass rules");
 * - WebRTC may only use proxied transports, so no UDP leaves either.
 */
export const isolationSwitches: readonly string[] = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=http://feedmill-no-network.invalid:9',
  '--proxy-bypass-list=<-loopback>',
  '--dns-prefetch-disable',
  '--force-webrtc-ip-handling-policy',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Chromium's own background traffic and crash reports switched off: a renderer is not a person's
 * browser, and crash dumps have filled disks elsewhere (RSSHub #7622).
 */
export const quietSwitches: readonly string[] = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-domain-reliability',
  '--disable-sync',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--no-pings',
  '--no-first-run',
  '--deny-permission-prompts',
  // A container's /dev/shm is often 64 MB, too small for Chromium's shared memory.
  '--disable-dev-shm-usage',
];
