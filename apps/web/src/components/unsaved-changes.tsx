import { useCallback, useContext, useEffect, useRef, type RefObject } from 'react';
import { UNSAFE_DataRouterContext, useBlocker, type BlockerFunction } from 'react-router';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** The blocker, the browser's own warning and the question; mounted only under a data router (as the app runs). */
function LeaveGuard({ dirty, leaving }: { dirty: boolean; leaving: RefObject<boolean> }) {
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  // Read at the moment of navigating, so a save's own navigation is never caught by a stale answer.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && !leaving.current && currentLocation.pathname !== nextLocation.pathname,
    [leaving],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <Dialog
      open={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      aria-labelledby="unsaved-title"
      aria-describedby="unsaved-message"
    >
      <DialogTitle id="unsaved-title">¿Salir sin guardar?</DialogTitle>
      <DialogContent>
        <DialogContentText id="unsaved-message">
          Tienes cambios sin guardar en este formulario. Si sales ahora, se pierden.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        {/* Leaving loses the clerk's input: the harmless answer has the focus. */}
        <Button autoFocus onClick={() => blocker.reset?.()}>
          Seguir editando
        </Button>
        <Button color="error" variant="contained" onClick={() => blocker.proceed?.()}>
          Salir sin guardar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Warns before leaving a form with unsaved input: a link, the sidebar or the back button asks first (React Router's
 * blocker), and closing or reloading the tab asks through the browser. A save that navigates away calls
 * `allowLeaving()` first; a failed save calls `keepGuarding()`. Render `dialog` inside the form.
 */
export function useUnsavedChanges(dirty: boolean) {
  const leaving = useRef(false);
  // A form rendered outside the app's data router (a widget test) has nothing to block.
  const routed = useContext(UNSAFE_DataRouterContext) !== null;
  return {
    dialog: routed ? <LeaveGuard dirty={dirty} leaving={leaving} /> : null,
    allowLeaving: () => {
      leaving.current = true;
    },
    keepGuarding: () => {
      leaving.current = false;
    },
  };
}
