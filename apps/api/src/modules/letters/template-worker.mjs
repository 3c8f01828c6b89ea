// The letter template's background, read off the event loop (issue 44): a PDF can be built to make its parser work
// for seconds (100,000 empty objects in 2.4 MB), and pdf-lib parses synchronously. This worker thread loads the
// uploaded bytes, keeps the first page only, and answers that page re-saved on its own: a small, plain PDF that the
// letters draw on in milliseconds. Past its budget of this thread's processor time (checked between pdf-lib's parse
// steps, which yield to timers) it answers too-slow, and the caller terminates it, as one that stops answering. Plain
// JavaScript, so that tsx, vitest and the production bundle run the same file. The caller's budgets:
// letter-template-worker.ts.
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';

const processorMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

parentPort.on('message', async ({ bytes, maxBytes, maxObjects, timeMs }) => {
  const started = processorMs();
  const watch = setInterval(() => {
    if (processorMs() - started <= timeMs) return;
    clearInterval(watch);
    // The caller settles on this answer and terminates the thread; whatever the parse answers after is not read.
    parentPort.postMessage({ refused: 'too-slow' });
  }, 20);
  try {
    let source;
    try {
      source = await PDFDocument.load(bytes, { updateMetadata: false });
    } catch (error) {
      const encrypted = error instanceof Error && /encrypt/i.test(error.message);
      parentPort.postMessage({ refused: encrypted ? 'encrypted' : 'unreadable' });
      return;
    }
    if (source.getPageCount() === 0) {
      parentPort.postMessage({ refused: 'no-pages' });
      return;
    }
    const canvas = await PDFDocument.create({ updateMetadata: false });
    const [page] = await canvas.copyPages(source, [0]);
    canvas.addPage(page);
    const objects = canvas.context.enumerateIndirectObjects().length;
    if (objects > maxObjects) {
      parentPort.postMessage({ refused: 'too-complex', objects });
      return;
    }
    const saved = await canvas.save({ useObjectStreams: false });
    if (saved.length > maxBytes) {
      parentPort.postMessage({ refused: 'too-large', bytes: saved.length });
      return;
    }
    const { width, height } = page.getSize();
    parentPort.postMessage({ canvas: saved, width, height }, [saved.buffer]);
  } catch (error) {
    parentPort.postMessage({ refused: 'unreadable', detail: error instanceof Error ? error.message : String(error) });
  } finally {
    clearInterval(watch);
  }
});

// Loaded and listening: the caller's time budget starts now, with the bytes, not while a busy machine starts the thread.
parentPort.postMessage({ ready: true });
