import { Navigate, useLocation } from 'react-router';
import { SIGN_IN_PATH } from '@portal/contract';
import { useSession } from '../../lib/auth/use-session';
import { AppLayout } from './app-layout';

/** Guarded routes need a session; a signed-out visitor goes to sign in, carrying the page wanted. */
export default function GuardedLayout() {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const wanted = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`${SIGN_IN_PATH}?redirect=${encodeURIComponent(wanted)}`} replace />;
  }
  return <AppLayout session={session} />;
}
