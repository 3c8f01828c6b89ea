/**
 * The embedded provider's own pages (sign-in, forgot password, reset, sign-out, errors): server-rendered,
 * Spanish, no inline script and no external font, styled like the portal (its blue theme and card).
 */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#eef2f6;
font-family:Roboto,"Segoe UI",Helvetica,Arial,sans-serif;color:#364152}
main{width:100%;max-width:420px;margin:24px;background:#fff;border-radius:12px;padding:32px;
box-shadow:0 2px 14px rgba(32,40,45,.08)}
.brand{color:#1e88e5;font-weight:700;font-size:14px;letter-spacing:.04em;text-transform:uppercase;margin:0 0 8px}
h1{font-size:22px;margin:0 0 8px;color:#121926}
p{line-height:1.5;margin:0 0 16px}
label{display:block;font-size:14px;font-weight:500;margin:16px 0 6px}
input{width:100%;padding:12px 14px;font-size:16px;border:1px solid #cdd5df;border-radius:8px;background:#f8fafc}
input:focus{outline:2px solid #1e88e5;border-color:#1e88e5;background:#fff}
button,.button{display:block;width:100%;margin-top:24px;padding:12px;font-size:16px;font-weight:500;border:0;
border-radius:8px;background:#1e88e5;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
button:hover,.button:hover{background:#1565c0}
.alert{padding:12px 14px;border-radius:8px;margin:16px 0 0;font-size:14px}
.alert.error{background:#fdecea;color:#b71c1c}
.alert.success{background:#e8f5e9;color:#1b5e20}
.links{margin-top:20px;font-size:14px;text-align:center}
a{color:#1e88e5}
`;

export interface PageOptions {
  title: string;
  body: string;
  /**
   * A script file to load after the card (the sign-out page's auto-submit). Never inline: the Content-Security-Policy
   * allows scripts from the portal's own origin only.
   */
  scriptSrc?: string;
}

export function page({ title, body, scriptSrc }: PageOptions): string {
  return `<!doctype html>
<html lang="es-MX">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Portal de crédito</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Portal de crédito de nómina</p>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${scriptSrc ? `<script src="${escapeHtml(scriptSrc)}"></script>` : ''}
</body>
</html>`;
}

export function alert(kind: 'error' | 'success', message: string | null | undefined): string {
  return message ? `<div class="alert ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(message)}</div>` : '';
}

export function loginPage(options: { action: string; email?: string; error?: string | null; forgotUrl: string }): string {
  return page({
    title: 'Iniciar sesión',
    body: `<p>Escribe tu correo y tu contraseña del portal.</p>
${alert('error', options.error)}
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
<label for="email">Correo electrónico</label>
<input id="email" name="email" type="email" required autofocus autocomplete="username" value="${escapeHtml(options.email ?? '')}">
<label for="password">Contraseña</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Iniciar sesión</button>
</form>
<div class="links"><a href="${escapeHtml(options.forgotUrl)}">¿Olvidaste tu contraseña?</a></div>`,
  });
}

export function forgotPasswordPage(options: { action: string; email?: string; error?: string | null; sent?: boolean }): string {
  if (options.sent) {
    return page({
      title: 'Revisa tu correo',
      body: `${alert('success', 'Si el correo está registrado, enviamos un enlace para restablecer la contraseña.')}
<p style="margin-top:16px">El enlace sirve una sola vez y vence en una hora. Puedes cerrar esta ventana.</p>`,
    });
  }
  return page({
    title: 'Restablecer contraseña',
    body: `<p>Escribe el correo con el que entras al portal y te enviaremos un enlace para elegir una contraseña nueva.</p>
${alert('error', options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<label for="email">Correo electrónico</label>
<input id="email" name="email" type="email" required autofocus autocomplete="username" value="${escapeHtml(options.email ?? '')}">
<button type="submit">Enviar enlace</button>
</form>`,
  });
}

export function resetPasswordPage(options: {
  action: string;
  token: string;
  email: string;
  purpose: 'reset' | 'invite';
  error?: string | null;
}): string {
  return page({
    title: options.purpose === 'invite' ? 'Crea tu contraseña' : 'Nueva contraseña',
    body: `<p>Cuenta: <strong>${escapeHtml(options.email)}</strong>. Usa al menos 10 caracteres, con letras y números.</p>
${alert('error', options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<label for="password">Nueva contraseña</label>
<input id="password" name="password" type="password" required minlength="10" autofocus autocomplete="new-password">
<label for="confirmation">Confirma la nueva contraseña</label>
<input id="confirmation" name="confirmation" type="password" required minlength="10" autocomplete="new-password">
<button type="submit">Guardar contraseña</button>
</form>`,
  });
}

export function messagePage(options: {
  title: string;
  kind: 'error' | 'success';
  message: string;
  link?: { href: string; label: string };
}): string {
  return page({
    title: options.title,
    body: `${alert(options.kind, options.message)}${
      options.link ? `<a class="button" href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a>` : ''
    }`,
  });
}
