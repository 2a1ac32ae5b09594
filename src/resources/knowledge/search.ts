import type MiniSearch from 'minisearch';

/** One indexed document. */
export interface IndexedDoc {
  id: string;
  name: string;
  folderId: string | null;
  text: string;
}

/** One search hit: the document, its score and a snippet around the first match. */
export interface SearchHit {
  id: string;
  name: string;
  folderId: string | null;
  score: number;
  snippet: string;
}

/** A search index over documents, rebuilt only when the set of documents changes. */
export function createSearchIndex() {
  let cached: { signature: string; index: MiniSearch<IndexedDoc>; texts: Map<string, IndexedDoc> } | undefined;

  async function build(docs: IndexedDoc[], signature: string) {
    if (cached?.signature === signature) return cached;
    const { default: MiniSearchClass } = await import('minisearch');
    const index = new MiniSearchClass<IndexedDoc>({
      fields: ['name', 'text'],
      storeFields: ['name', 'folderId'],
      searchOptions: { boost: { name: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'AND' },
    });
    index.addAll(docs);
    cached = { signature, index, texts: new Map(docs.map((d) => [d.id, d])) };
    return cached;
  }

  return {
    /**
     * Searches `docs` (the signature names their versions, so an unchanged set reuses the index).
     * @example
     * await index.search(docs, 'id:sha,...', 'refund policy', 5)
     */
    async search(docs: IndexedDoc[], signature: string, query: string, limit = 10): Promise<SearchHit[]> {
      const { index, texts } = await build(docs, signature);
      return index.search(query).slice(0, limit).map((r) => ({
        id: r.id as string,
        name: r.name as string,
        folderId: (r.folderId as string | null) ?? null,
        score: Math.round(r.score * 1000) / 1000,
        snippet: snippet(texts.get(r.id as string)?.text ?? '', r.terms),
      }));
    },
  };
}

/** About 160 characters around the first matched term, on one line. */
function snippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  const found = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const start = Math.max(0, at - 60);
  const out = text.slice(start, start + 160).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${out}${start + 160 < text.length ? '…' : ''}`;
}
