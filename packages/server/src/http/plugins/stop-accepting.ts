import { connect, Server, type AddressInfo, type Socket } from 'node:net';

/**
 * Closes the listening socket once the kernel's queue of connections waiting to be accepted
 * (the listen backlog) is empty, and resolves once every connection accepted by then has had
 * what its client already sent read. Connections already accepted are left alone: each one
 * with a request under way is answered, whatever load the machine is under.
 *
 * Node cannot look into that queue, but the queue is first in, first out: a connection we open
 * to ourselves joins it at the back, so once we accept it, every connection queued before it
 * has been accepted too. That holds however late the event loop gets to run (a busy machine, a
 * stopped and resumed process), which a fixed wait does not. While other connections keep
 * arriving during such a round, we take another, until one finds the queue empty or `until`
 * (a Date.now() time) passes. The socket is closed straight after the last round, so only a
 * connection that arrives after it — after the drain — can find it closed.
 */
export async function stopAcceptingOnceQueueEmpty(server: Server, until: number): Promise<void> {
  const address = server.address();
  if (address !== null && typeof address === 'object') {
    try {
      let othersArrived: number;
      do othersArrived = await acceptOwnConnection(server, address);
      while (othersArrived > 0 && Date.now() < until);
    } catch {
      // We could not reach ourselves (an address this host cannot connect to): the queue is
      // left as the event loop found it, which is what closing without the rounds would do.
    }
  }
  closeListeningSocket(server);
  await afterNextRead();
}

/**
 * Connects to `server` and resolves, once its side of that connection is accepted, with how
 * many other connections were accepted in the meantime.
 */
function acceptOwnConnection(server: Server, address: AddressInfo): Promise<number> {
  return new Promise((resolve, reject) => {
    const accepted: Socket[] = [];
    const client = connect({ host: reachableHost(address.address), port: address.port });
    const isOurs = (socket: Socket) =>
      socket.remotePort === client.localPort && socket.remoteAddress === client.localAddress;
    const settleIfAccepted = () => {
      // Our port is known only once the client side has connected, which may be before or
      // after the server side accepts: whichever comes second settles the round.
      if (client.localPort === undefined) return;
      const ours = accepted.find(isOurs);
      if (ours === undefined) return;
      server.off('connection', onConnection);
      ours.destroy();
      client.destroy();
      resolve(accepted.length - 1);
    };
    const onConnection = (socket: Socket) => {
      accepted.push(socket);
      settleIfAccepted();
    };
    server.on('connection', onConnection);
    client.once('connect', settleIfAccepted);
    client.on('error', (err) => {
      server.off('connection', onConnection);
      reject(err);
    });
  });
}

/** A wildcard address is listened on, not connected to: its loopback stands in for it. */
function reachableHost(listening: string): string {
  if (listening === '0.0.0.0') return '127.0.0.1';
  if (listening === '::') return '::1';
  return listening;
}

/**
 * `net.Server`'s close, not `http.Server`'s: the HTTP one also closes every connection without a
 * request under way, and a connection accepted in this very turn has not been read yet, so its
 * request, though sent, is not under way. Fastify's close does that later, after afterNextRead.
 */
function closeListeningSocket(server: Server): void {
  if (server.listening) Server.prototype.close.call(server);
}

/**
 * Resolves after the event loop has polled every socket accepted before the call. libuv starts
 * watching a socket at the start of the poll phase after the one that accepted it, and that
 * poll reports the bytes already waiting; the check phase (setImmediate) follows each poll.
 */
function afterNextRead(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
