// The bundled copy of the CDN widget, served when the downloaded one does not match its digest.
export function widget() { return "ok"; }
