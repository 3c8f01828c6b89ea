import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { SignInPage, type Go } from './sign-in-page';

export { safeRedirect } from './sign-in-page';

/** The sign-in page as a route of the app (after a sign-out, or a guard's redirect): the router navigates. */
export default function SignInScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const go = useCallback<Go>((to, options) => void navigate(to, options), [navigate]);
  return <SignInPage redirect={params.get('redirect')} go={go} />;
}
