import type Sigma from 'sigma';
import type { Attributes } from 'graphology-types';
import type { CameraState } from 'sigma/types';

/**
 * While the camera moves over a big graph, the last drawn frame is moved instead of the graph
 * being drawn again: sigma's layers are shifted and scaled with a CSS transform that matches the
 * camera, and the graph is drawn for real once the camera has been still for SETTLE_MS. This is
 * Cytoscape.js's `textureOnViewport`, for the same reason: without a GPU (Chromium's WebGL on
 * SwiftShader, as on our test machine) sigma takes 100–300 ms to draw 10,000 nodes, so a drag
 * ran at 3–10 frames a second; moving a drawn frame costs the compositor a few milliseconds.
 * What the user sees while moving: the picture as it was, scaled (node sizes and labels too)
 * and with what comes into view still blank; it is redrawn exactly as soon as the camera rests.
 *
 * sigma has no setting for this, so its public `scheduleRender` is wrapped: a render asked for
 * while the camera differs from the one last drawn becomes a preview. Data changes (filters,
 * the layout worker's positions) made during a move are drawn when the move settles.
 */
export const PREVIEW_FROM_NODES = 2_000;
const SETTLE_MS = 120;

export class CameraPreview<N extends Attributes, E extends Attributes> {
  private drawn: CameraState | undefined;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private transformed = false;

  constructor(private readonly renderer: Sigma<N, E>) {
    const scheduleRender = renderer.scheduleRender.bind(renderer);
    renderer.scheduleRender = () => (this.preview() ? renderer : scheduleRender());
    renderer.on('afterRender', () => {
      this.drawn = renderer.getCamera().getState();
      if (this.transformed) this.setTransform('');
    });
  }

  /** Moves the last frame to where the camera now is; false when a real render is needed. */
  private preview(): boolean {
    const drawn = this.drawn;
    const now = this.renderer.getCamera().getState();
    if (!drawn || sameState(drawn, now) || drawn.angle !== now.angle) return false;
    const { width, height } = this.renderer.getDimensions();
    const centre = { x: width / 2, y: height / 2 };
    // The point drawn at the centre, and where the camera now puts it.
    const moved = this.renderer.framedGraphToViewport({ x: drawn.x, y: drawn.y }, { cameraState: now });
    const scale = drawn.ratio / now.ratio;
    this.setTransform(`translate(${moved.x - centre.x}px, ${moved.y - centre.y}px) scale(${scale})`);
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.drawn = undefined; // so that the render below is a real one
      this.renderer.scheduleRender();
    }, SETTLE_MS);
    return true;
  }

  /** Every layer but the mouse layer, which must stay put: sigma reads pointer positions off it. */
  private setTransform(transform: string): void {
    this.transformed = transform !== '';
    for (const [name, canvas] of Object.entries(this.renderer.getCanvases())) {
      if (name === 'mouse') continue;
      canvas.style.transformOrigin = '50% 50%';
      canvas.style.transform = transform;
    }
  }

  kill(): void {
    clearTimeout(this.settleTimer);
  }
}

const sameState = (a: CameraState, b: CameraState) => a.x === b.x && a.y === b.y && a.ratio === b.ratio;
