// fontkit ships no types; pdfkit (which depends on it) takes its parsed fonts as they are.
declare module 'fontkit' {
  /** A font parsed from its bytes (an object with `layout`, as pdfkit's font factory takes it). */
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}
