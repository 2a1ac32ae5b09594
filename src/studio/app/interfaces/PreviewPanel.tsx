import { useEffect } from 'react';
import { ErrorNote, when } from '../ui/parts.js';
import type { InterfaceInfo } from './types.js';
import { usePreview } from './usePreview.js';
import { useScreenshots } from './useScreenshots.js';

/**
 * The live preview of an interface: started (or found running) when opened, its page drawn from the screenshots
 * the host answers as the page changes, whoever changed it (this page, `weir click|type|eval|nav`, a rebuild).
 */
export function PreviewPanel({ item, onStarted }: { item: InterfaceInfo; onStarted(): void }) {
  const preview = usePreview(item.id);
  const running = !!preview.preview;
  const { shot, error } = useScreenshots(item.id, running);
  const started = preview.preview?.started;
  // The list shows the preview's URL once one runs.
  useEffect(() => {
    if (started) onStarted();
  }, [started, onStarted]);
  return (
    <section className="panel preview" aria-label="Preview">
      <header className="row">
        <h3>Preview</h3>
        {preview.starting && <span className="muted">Starting the preview…</span>}
        {preview.preview && (
          <a href={preview.preview.url} target="_blank" rel="noreferrer" className="muted">
            {preview.preview.url}
          </a>
        )}
        {shot && (
          <span className="muted" aria-label="Page version">
            page version {shot.version} · {when(new Date(shot.at).toISOString())}
          </span>
        )}
      </header>
      <ErrorNote error={preview.error} title="Could not start the preview" />
      <ErrorNote error={error} title={error?.status === 409 ? 'The preview stopped' : 'Could not show the preview'} />
      {(preview.error || error?.status === 409) && (
        <button className="primary" onClick={preview.start}>
          Start preview
        </button>
      )}
      {shot && <img className="preview-shot" src={shot.src} data-version={shot.version} alt={`The page of ${item.name}, version ${shot.version}`} />}
      <p className="muted">
        The same preview <code>weir preview {item.name}</code> starts: <code>weir click|type|eval|nav {item.name} …</code> drive it, and it runs until{' '}
        <code>weir preview {item.name} --stop</code>.
      </p>
    </section>
  );
}
