/** The template's demo constants (seed section 9). Demo only: the product has its own session rules. */
export const DEMO_TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
export const MOCK_LOGIN_DELAY_MS = 1000;
export const PRODUCT_TOTAL_UNIT = 100;
export const RATINGS = [1, 2, 3, 4, 5] as const;
export const CATEGORIES = ['audio', 'fashion', 'cellphone', 'accessories'] as const;
export const BRANDS = ['Microlab', 'Sony', 'Beats', 'Iphone', 'Comlion', 'Kurren'] as const;

/** Demo messages of seed section 8, with their HTTP status. */
export const DEMO_ERRORS = {
  invalidCredentials: { status: 400, message: 'Invalid email or password' },
  userExists: { status: 400, message: 'User already exists!' },
  invalidToken: { status: 401, message: 'Invalid Authorization token' },
  serverError: { status: 500, message: 'Internal server error' },
} as const;
