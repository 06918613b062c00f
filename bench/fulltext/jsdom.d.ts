/** The part of jsdom the fulltext benchmark uses (jsdom ships no types; it is a bench-only dependency). */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string });
    readonly window: { readonly document: { readonly documentElement: unknown }; close(): void };
  }
}
