import type { Route } from './types.js';

/**
 * Every HTTP route of the host, in match order. Each subsystem contributes its routes here
 * (one import and one spread per subsystem).
 */
export const routes: Route[] = [];
