// The host's request, answer and route types live with the other plain types: triggers declare routes with them
// without importing the host.
export type { HostRequest, HostResponse, Route, RouteParams } from '../types/http.js';
