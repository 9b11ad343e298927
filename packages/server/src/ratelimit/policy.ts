import type { Plan, Principal } from '../model.js';

/**
 * The rate-limit table: every route of the service belongs to exactly one group, and each
 * group has a per-minute and a per-second (burst) limit per plan. This file is the one place
 * where routes meet limits; routes that do not exist yet (search, crystallize, memories,
 * specific-knowledge) are already here.
 */
export const RATE_LIMIT_GROUPS = [
  'snapshots_read',
  'snapshots_write',
  'search',
  'edges',
  'crystallize',
  'memories',
  'knowledge',
] as const;
export type RateLimitGroup = (typeof RATE_LIMIT_GROUPS)[number];

export interface Limits {
  perMinute: number;
  perSecond: number;
}

const limits = (perMinute: number, perSecond: number): Limits => ({ perMinute, perSecond });

/** The table of design §5.3 for Free and Pro; `snapshots_write` uses the POST /snapshots row. */
export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, Record<RateLimitGroup, Limits>> = {
  free: {
    snapshots_read: limits(60, 10),
    snapshots_write: limits(30, 5),
    search: limits(30, 5),
    edges: limits(60, 10),
    crystallize: limits(10, 2),
    memories: limits(60, 10),
    knowledge: limits(10, 2),
  },
  pro: {
    snapshots_read: limits(300, 30),
    snapshots_write: limits(120, 20),
    search: limits(120, 20),
    edges: limits(300, 30),
    crystallize: limits(60, 10),
    memories: limits(300, 30),
    knowledge: limits(60, 10),
  },
};

/** An enterprise key created without custom limits gets these, in every group. */
export const ENTERPRISE_DEFAULT_LIMITS: Limits = limits(6000, 100);

/**
 * Requests without a valid key, per client address, unless configured. High enough that a client
 * (or a test suite) checking its error handling from one address never meets it; low enough
 * that an address guessing keys is slowed to a trickle.
 */
export const ANONYMOUS_DEFAULT_LIMITS: Limits = limits(1000, 100);

export function limitsFor(principal: Pick<Principal, 'plan' | 'rpm' | 'burst'>, group: RateLimitGroup): Limits {
  if (principal.plan === 'enterprise') {
    return {
      perMinute: principal.rpm ?? ENTERPRISE_DEFAULT_LIMITS.perMinute,
      perSecond: principal.burst ?? ENTERPRISE_DEFAULT_LIMITS.perSecond,
    };
  }
  return PLAN_LIMITS[principal.plan][group];
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const groupsOfRoutes = new Map<string, { read: RateLimitGroup; write: RateLimitGroup }>();

/**
 * The group of a request to a route pattern (`/v1/snapshots/:id`): groupOf, remembered per
 * pattern, since there are few patterns and this runs on every request.
 */
export function groupOfRoute(method: string, route: string): RateLimitGroup {
  let groups = groupsOfRoutes.get(route);
  if (groups === undefined) {
    groups = { read: groupOf('GET', route), write: groupOf('POST', route) };
    groupsOfRoutes.set(route, groups);
  }
  return READ_METHODS.has(method) ? groups.read : groups.write;
}

/** `/snapshots/search` is matched by the `/snapshots/:id` route until search has a route of its own. */
const SEARCH_PATH = /^\/(?:api\/)?v1\/snapshots\/search(?:[/?]|$)/;

/**
 * The group of a request that a route matched (or none: `route` undefined). The route decides,
 * remembered per pattern, except where a parameter stands for a path that is a route of its
 * own in the table.
 */
export function groupOfRequest(method: string, route: string | undefined, url: string): RateLimitGroup {
  if (route === undefined) return groupOf(method, url);
  if (route.endsWith('/snapshots/:id') && SEARCH_PATH.test(url)) return groupOf(method, url);
  return groupOfRoute(method, route);
}

/**
 * The group of a request, from its method and path (a route pattern or a concrete URL; the
 * `/v1` or `/api/v1` prefix and any ids do not matter, so every spelling of one route shares
 * one window).
 */
export function groupOf(method: string, path: string): RateLimitGroup {
  const resource = path.replace(/^\/(api\/)?v1\//, '').split(/[/?]/);
  const read = READ_METHODS.has(method);
  switch (resource[0]) {
    case 'edges':
      return 'edges';
    case 'crystallize':
      // Reading a run back counts as a read (design §5.2).
      return read ? 'snapshots_read' : 'crystallize';
    case 'memories':
      return 'memories';
    case 'ingest':
      return 'knowledge';
    case 'brains':
      // Importing a brain is knowledge work (design §15.3); the rest of /brains counts as snapshots.
      if (resource[1] === 'import' && !read) return 'knowledge';
      return read ? 'snapshots_read' : 'snapshots_write';
    case 'specific-knowledge':
      // Sources and entries are read and edited as snapshots are (design §13.2); the rest
      // (ingest, search, and any path of the group that has no route yet) is knowledge work.
      if (resource[1] === 'sources' || resource[1] === 'entries') return read ? 'snapshots_read' : 'snapshots_write';
      return 'knowledge';
    case 'snapshots':
      if (resource[1] === 'search' && read) return 'search';
      // A snapshot's suggested edges count with the edges (design §9).
      if (resource[2] === 'suggestions') return 'edges';
      return read ? 'snapshots_read' : 'snapshots_write';
    default:
      // Brains, and any path no route serves, count as snapshot reads or writes.
      return read ? 'snapshots_read' : 'snapshots_write';
  }
}
