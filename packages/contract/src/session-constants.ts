/**
 * The title of the API's 401 to a valid token that does not say who the user is (no e-mail claim): the sign-in page
 * tells the user why instead of a generic refusal.
 */
export const MISSING_EMAIL_CLAIM_TITLE = 'Token sin correo electrónico';
