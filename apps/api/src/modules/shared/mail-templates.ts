/**
 * What the portal mails, in Spanish, as plain text and HTML under the company's brand. One entry per kind: a new kind
 * (say, a document sent to a borrower) is one more member of MailContent and one more case of `compose`; files it
 * carries go beside the message (outbox_attachments), not in the template.
 */

export const MAIL_KINDS = ['invitation', 'password-reset', 'email-change', 'notice'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type MailContent =
  | { kind: 'invitation'; link: string }
  | { kind: 'password-reset'; link: string }
  | { kind: 'email-change'; oldEmail: string; newEmail: string }
  /** A message written by hand or by a kind without its own template: a subject and paragraphs. */
  | { kind: 'notice'; subject: string; paragraphs: string[]; link?: string; linkLabel?: string };

/** The company the message speaks for: its trade name heads the message and signs it, its legal name closes it. */
export interface MailBrand {
  name: string;
  legalName: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** The portal's primary colour (apps/web/src/app/theme.ts): white on it reads at 5.7:1 (WCAG AA). */
const BRAND_COLOR = '#1565c0';

interface Parts {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; link: string };
  /** Said after the button: what to do if the message was not expected. */
  closing: string;
}

function compose(content: MailContent): Parts {
  switch (content.kind) {
    case 'invitation':
      return {
        subject: 'Tu acceso al portal de crédito',
        greeting: 'Hola:',
        paragraphs: ['Te dieron de alta en el portal. Crea tu contraseña con este enlace (vence en 7 días):'],
        action: { label: 'Crear mi contraseña', link: content.link },
        closing: 'Si no esperabas este correo, ignóralo: sin tu contraseña nadie entra con tu usuario.',
      };
    case 'password-reset':
      return {
        subject: 'Restablece tu contraseña del portal',
        greeting: 'Hola:',
        paragraphs: ['Recibimos una solicitud para restablecer tu contraseña. El enlace vence en una hora y sirve una sola vez:'],
        action: { label: 'Restablecer mi contraseña', link: content.link },
        closing: 'Si no lo pediste, ignora este correo: tu contraseña sigue igual.',
      };
    case 'email-change':
      return {
        subject: 'Cambió el correo de tu acceso al portal',
        greeting: 'Hola:',
        paragraphs: [`El correo de tu usuario del portal cambió de ${content.oldEmail} a ${content.newEmail}.`],
        closing: 'Si no lo pediste, avisa de inmediato al administrador del portal.',
      };
    case 'notice':
      return {
        subject: content.subject,
        greeting: 'Hola:',
        paragraphs: content.paragraphs,
        ...(content.link ? { action: { label: content.linkLabel ?? 'Abrir', link: content.link } } : {}),
        closing: '',
      };
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The message in both parts. Every value is escaped in the HTML part: an e-mail address or a name is the user's text. */
export function renderMail(content: MailContent, brand: MailBrand): RenderedMail {
  const parts = compose(content);
  const footer = `${brand.legalName}. Este correo lo envió el portal de crédito de ${brand.name}; no respondas a esta dirección.`;
  const text = [
    parts.greeting,
    '',
    ...parts.paragraphs,
    ...(parts.action ? ['', parts.action.link] : []),
    ...(parts.closing ? ['', parts.closing] : []),
    '',
    `— ${brand.name}`,
    '',
    footer,
  ].join('\n');

  const paragraph = (line: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(line)}</p>`;
  const button = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.link)}" style="background:${BRAND_COLOR};color:#ffffff;padding:12px 20px;border-radius:4px;text-decoration:none;font-weight:bold;display:inline-block">${escapeHtml(parts.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#4b5565">Si el botón no abre, copia esta dirección en tu navegador:<br><a href="${escapeHtml(parts.action.link)}" style="color:${BRAND_COLOR};word-break:break-all">${escapeHtml(parts.action.link)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#364152">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f6f8;padding:24px 0">
<tr><td align="center">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#ffffff;border-radius:6px">
<tr><td style="background:${BRAND_COLOR};color:#ffffff;padding:16px 24px;font-size:20px;font-weight:bold;border-radius:6px 6px 0 0">${escapeHtml(brand.name)}</td></tr>
<tr><td style="padding:24px">
${paragraph(parts.greeting)}
${parts.paragraphs.map(paragraph).join('\n')}
${button}
${parts.closing ? paragraph(parts.closing) : ''}
<p style="margin:24px 0 0">— ${escapeHtml(brand.name)}</p>
</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#4b5565;border-top:1px solid #e3e8ef">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject: parts.subject, text, html };
}
