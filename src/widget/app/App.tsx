/** The iframe app's shell. The chat and channel-connect screens mount here as they are built. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem', color: '#1f2933' }}>
      <h1 style={{ fontSize: '1.5rem', margin: 0 }}>Messaging gateway</h1>
      <p>
        The gateway is running. The REST reference is at <a href="/docs">/docs</a>.
      </p>
    </main>
  );
}
