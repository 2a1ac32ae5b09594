import { WeirError } from '../../errors.js';
import type { Knowledge } from '../../resources/knowledge/index.js';
import type { Route } from '../types.js';

/**
 * `GET /kb/<token>`: a knowledge document's content at its public URL. The token is the only credential, so an
 * unknown one is a plain 404. HTML is sandboxed so a document cannot script the host's origin.
 */
export const knowledgeRoutes = (knowledge: Pick<Knowledge, 'byToken' | 'open'>): Route[] => [
  {
    methods: ['GET', 'HEAD'],
    path: '/kb/:token',
    async handle(req, params) {
      const doc = await knowledge.byToken(params.token);
      if (!doc) throw new WeirError('NOT_FOUND', 'document not found');
      const headers = {
        'content-type': doc.contentType,
        'content-length': String(doc.size),
        'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(doc.name)}`,
        etag: `"${doc.sha256}"`,
        'cache-control': 'private, max-age=0',
        'x-content-type-options': 'nosniff',
        'content-security-policy': 'sandbox',
      };
      if (req.method === 'HEAD') return { status: 200, headers };
      return { status: 200, headers, stream: await knowledge.open(doc.id) };
    },
  },
];
