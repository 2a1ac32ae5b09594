// Leaving the editor with unsaved changes asks first: a link or the back button (a hash change: the Studio's
// routes are hashes) and closing or reloading the tab (beforeunload).
import { useEffect } from 'react';
import { guardLeaving } from '../route.js';

/**
 * While `dirty`, a navigation that leaves the views `stays` accepts asks "leave without saving?"; a reload or
 * close of the tab asks the browser's own question.
 */
export function useLeaveGuard(dirty: boolean, stays: (url: string) => boolean, question: string) {
  useEffect(() => {
    if (!dirty) return;
    const unguard = guardLeaving((url) => stays(url) || confirm(question));
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    addEventListener('beforeunload', onUnload);
    return () => {
      unguard();
      removeEventListener('beforeunload', onUnload);
    };
  }, [dirty, stays, question]);
}
