import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { closeStorage, connectStorage, registerStorage } from '../storage/setup.ts';
import { closeStoreListener } from '../storage/store-listener.ts';
import type { UploadCredentialIssuer } from '../storage/upload-credentials.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every object the product keeps (S3 API). The embedded store is reached over HTTP through
     * this server's own /s3, so until the server listens this is a store that refuses every call;
     * it is replaced by the connected one then (server/storage/setup.ts).
     */
    storage: ObjectStore;
    /** Short-lived browser credentials limited to one project's prefix. */
    uploadCredentials: UploadCredentialIssuer;
  }
}

/**
 * Object storage: mounts the embedded S3 endpoint at /s3 (embedded mode), decorates
 * `app.storage` and `app.uploadCredentials`, connects the store when the server listens and
 * closes its clients when the server closes. `connectStorage(app)` answers that one connection:
 * main.ts awaits it and stops the start when the store cannot be reached.
 */
export const storagePlugin = fp(
  async function storagePlugin(app: FastifyInstance, { config }: { config: Pick<Config, 'storage' | 'dataDir' | 'publicUrl'> }) {
    const parts = await registerStorage(app, { storage: config.storage, dataDir: config.dataDir, db: app.db, publicUrl: config.publicUrl });
    app.decorate('storage', parts.storage);
    app.decorate('uploadCredentials', parts.uploadCredentials);
    app.addHook('onListen', async () => {
      // Whoever needs the store awaits connectStorage(app) and sees the error; logged here for the rest.
      await connectStorage(app).catch((error: unknown) => app.log.error({ err: error }, 'object storage did not connect'));
    });
    // The store's own listener (main.ts starts it) stops accepting when the app does, and the
    // store's clients close once its requests in flight are done.
    app.addHook('preClose', async () => {
      void closeStoreListener(app);
    });
    app.addHook('onClose', async () => {
      await closeStoreListener(app);
      closeStorage(app);
    });
  },
  { name: 'cutdesk-storage', dependencies: ['cutdesk-db'] },
);
