import type { FastifyInstance } from 'fastify';

export interface ListedRoute {
  method: string;
  /** Full path with Fastify's parameters (`/api/v1/projects/:id`). */
  url: string;
}

/**
 * Every route of a built app, read from `printRoutes({ commonPrefix: false })`: a radix tree
 * drawn with one node a line, each node's text appended to its parent's, its methods in
 * parentheses. The fuzz test is driven by this list, so a route added later is fuzzed too.
 */
export async function listRoutes(app: FastifyInstance): Promise<ListedRoute[]> {
  await app.ready();
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: ListedRoute[] = [];
  for (const line of tree.split('\n')) {
    const branch = line.search(/[├└]── /);
    if (branch === -1) continue;
    const depth = branch / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(branch + 4));
    if (!match) continue;
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + match[1]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match[2]?.split(', ') ?? []) routes.push({ method, url: path });
  }
  return routes;
}
