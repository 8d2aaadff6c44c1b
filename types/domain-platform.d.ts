/**
 * The few web-platform globals every runtime of src/domain has (browsers, workers, Node 24).
 * tsconfig.domain.json loads neither the DOM nor @types/node, so `window`, `document`, `fs` or
 * `process` in the domain are type errors; these are declared here, and only as far as the
 * domain uses them. Add one only when all three runtimes have it.
 */
declare function atob(data: string): string;

declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly href: string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
