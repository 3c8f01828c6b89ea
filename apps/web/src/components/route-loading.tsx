/** Shown while a screen's code loads; plain markup so it costs nothing before MUI is there. */
export function RouteLoading() {
  return <div className="route-loading" role="progressbar" aria-label="Cargando" />;
}
