/** The shell's fixed measures (seed section 9), shared by the shell and by the panels that must sit below its bar. */
export const SHELL = { headerHeight: 64, sidebarWidth: 260, sidebarCompactWidth: 80 } as const;

/** A drawer's paper below the fixed app bar, so its title and close button are never hidden behind it. */
export const BELOW_APP_BAR = { top: SHELL.headerHeight, height: `calc(100% - ${SHELL.headerHeight}px)` } as const;
