"""Whether an element is in the window, read without waiting for a rendered frame.

Playwright's ``expect(...).to_be_in_viewport()`` asks an IntersectionObserver, whose answer
comes with the next rendered frame. When headless Chromium stops producing frames in the
middle of a long game (see the comment above test_presets' every-preset game), that
assertion waited for ever, past its own timeout, and a CI run with it. This one reads the
element's box against the window, polled by timers, so it fails after its timeout instead.
"""

from playwright.sync_api import Locator

IN_VIEWPORT = """element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0
    && box.top < window.innerHeight && box.left < window.innerWidth;
}"""


def expect_in_viewport(locator: Locator, timeout: float = 5000) -> None:
    """Wait until ``locator``'s element shows at least partly in the window (as
    ``to_be_in_viewport`` does, with no ratio); raises Playwright's TimeoutError after
    ``timeout`` milliseconds."""
    element = locator.element_handle(timeout=timeout)
    locator.page.wait_for_function(IN_VIEWPORT, arg=element, polling=100, timeout=timeout)
