/** A helper process of a benchmark (receiver, baseline server) that reports its URL over IPC once listening. */
import { fork, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Sends `{type}` and resolves with the child's answer. */
  ask<T>(type: string): Promise<T>;
  stop(): Promise<void>;
}

export function startChildServer(script: URL, execArgv: string[] = [], args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<ChildServer> {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...execArgv], env });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script.pathname} exited with ${code} before listening`)));
    child.once('message', (m: { url: string }) => {
      child.removeAllListeners('exit');
      resolve({
        url: m.url,
        child,
        ask: <T>(type: string) =>
          new Promise<T>((done) => {
            child.once('message', (answer: T) => done(answer));
            child.send({ type });
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}
