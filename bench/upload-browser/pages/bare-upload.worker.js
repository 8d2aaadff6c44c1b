/** The shared worker of the bare-worker page: six PUTs at once, by fetch or (xhr) XMLHttpRequest. */

/** @param {string} url @param {Blob} body @param {boolean} xhr */
function put(url, body, xhr) {
  if (!xhr) {
    return fetch(url, { method: 'PUT', body }).then((answer) => {
      if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
      return answer.headers.get('etag');
    });
  }
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.upload.onprogress = () => undefined;
    request.onload = () => (request.status < 300 ? resolve(request.getResponseHeader('etag')) : reject(new Error(`${url}: ${request.status}`)));
    request.onerror = () => reject(new Error(`${url}: network error`));
    request.send(body);
  });
}

/** @param {MessageEvent} connection */
self.onconnect = (connection) => {
  const port = connection.ports[0];
  port.onmessage = async ({ data: { file, urls, partSize, limit, xhr } }) => {
    const etags = new Array(urls.length);
    let next = 0;
    const lane = async () => {
      while (next < urls.length) {
        const index = next++;
        etags[index] = await put(urls[index], file.slice(index * partSize, Math.min(file.size, (index + 1) * partSize)), xhr);
      }
    };
    try {
      await Promise.all(Array.from({ length: limit }, lane));
      port.postMessage({ etags });
    } catch (error) {
      port.postMessage({ error: String(error) });
    }
  };
  port.start();
};
