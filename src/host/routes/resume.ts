import { WeirError } from '../../errors.js';
import type { Waits } from '../../types/waits.js';
import { requestBody } from '../request-body.js';
import type { Route } from '../types.js';

/** What a token looks like (192 random bits, base64url); anything else is unknown without a lookup. */
const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * `/resume/:token`, any method: resumes the execution waiting for that URL, answering 202 `{executionId}`;
 * the wait node's data is the call's `{body, headers, query, method}`, the body decoded as a webhook's is.
 * An approval URL's token (`$execution.approvalUrl`) decides its approval wait instead, answering 202
 * `{executionId, approved, reason?, tool?, applied}`. An unknown, used or expired token is 404.
 */
export const resumeRoutes = (waits: Pick<Waits, 'resume'>): Route[] => [
  {
    path: '/resume/:token',
    async handle(req, params) {
      const notFound = new WeirError('NOT_FOUND', 'not found');
      if (!TOKEN.test(params.token)) throw notFound;
      const decoded = requestBody(req);
      const body = (decoded instanceof Promise ? await decoded : decoded).value;
      const resumed = await waits.resume(params.token, { body, headers: req.headers, query: req.query, method: req.method });
      if (!resumed) throw notFound;
      return { status: 202, body: resumed };
    },
  },
];
