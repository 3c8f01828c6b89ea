/** Text as people may type it in a file or a form: "Acción", "ACCION" and " acción " compare equal. */
export const plainText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();
