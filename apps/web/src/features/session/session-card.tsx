import type { ReactNode } from 'react';
import './session.css';

/** The centred card of the public session pages (sign-in, forgot password). */
export function SessionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="session-page">
      <section className="session-card">
        <p className="session-brand">Portal de crédito de nómina</p>
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}

export function SessionAlert({ kind, children }: { kind: 'error' | 'warning' | 'info'; children: ReactNode }) {
  return (
    <div className={`session-alert ${kind}`} role={kind === 'info' ? 'status' : 'alert'}>
      {children}
    </div>
  );
}
