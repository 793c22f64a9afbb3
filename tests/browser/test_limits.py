"""What a phone sees at a limit: the preset editor says why it did not save, and keeps what
was typed so nothing is lost."""

from playwright.sync_api import expect


def test_a_device_at_its_preset_limit_is_told_why_and_keeps_its_entry(app, live_server, phone, screenshot_dir):
    app.config["MAX_PRESETS_PER_DEVICE"] = 1
    page = phone
    for name in ("Thursday club", "Friday club"):
        page.goto(live_server + "/presets/new")
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_label("Notes for the table").fill("Hearts may be led in Barbu.")
        with page.expect_navigation():
            page.get_by_role("button", name="Save preset").tap()

    # The second one is refused: the reason at the top, the name and notes still there.
    alert = page.locator(".preset-editor [role=alert]").first
    expect(alert).to_contain_text(
        "This device keeps 1 saved preset, the most allowed; delete it if you no longer use it"
    )
    expect(page.get_by_label("Name", exact=True)).to_have_value("Friday club")
    expect(page.get_by_label("Notes for the table")).to_have_value("Hearts may be led in Barbu.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshot_dir / "preset-limit-390.png"), full_page=False)

    # Deleting the first frees its place: the same entry then saves.
    page.goto(live_server + "/presets")
    page.get_by_role("link", name="Thursday club").tap()
    page.get_by_role("link", name="Delete…", exact=True).tap()
    page.get_by_role("button", name="Delete preset").tap()
    expect(page).to_have_url(live_server + "/presets")
    expect(page.get_by_role("link", name="Thursday club")).to_have_count(0)
    page.goto(live_server + "/presets/new")
    page.get_by_label("Name", exact=True).fill("Friday club")
    with page.expect_navigation():
        page.get_by_role("button", name="Save preset").tap()
    expect(page.get_by_role("heading", name="Friday club")).to_be_visible()
