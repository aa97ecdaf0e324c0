"""pegboard.radio over a fake network module (tests/board/fakenet.py): the home network
found, refused, late, lost mid-game and back; the own network as the fallback, the home
network tried again from it; no radio. Plain asserts: runs under pytest and under
MicroPython with the heap capped (tests/mp_run.py)."""

from fakenet import FakeNetwork

from pegboard.radio import ADDRESS, HOME, JOIN_MS, JOINING, NONE, OWN, RETRY_MS, Radio

OWN_NET = ("Cribbage-ABCD", "abcd-efgh-jkmn")
HOME_NET = ("Kitchen", "home-password")


def run(radio, net, until, step=100):
    """Step the radio every step ms up to until (the fake's clock follows)."""
    while net.now < until:
        net.now += step
        radio.step(net.now)


def started(net, home=HOME_NET, name="cribbage-7qx2"):
    radio = Radio(net, OWN_NET, home, name)
    seen = []
    radio.listeners.append(lambda r: seen.append((r.state, r.address)))
    radio.start(net.now)
    return radio, seen


def test_with_no_home_network_the_own_network_opens_at_once():
    net = FakeNetwork()
    radio, seen = started(net, home=None)
    assert (radio.state, radio.address) == (OWN, ADDRESS)
    assert ("ap", "config", {"ssid": OWN_NET[0], "key": OWN_NET[1]}) in net.calls
    assert ("sta", "active", False) in net.calls
    assert seen == [(OWN, ADDRESS)]
    run(radio, net, RETRY_MS * 3)
    assert not [c for c in net.calls if c[1] == "connect"]  # nothing to try


def test_the_home_network_is_joined_and_the_name_set_before_the_station_starts():
    net = FakeNetwork(join_ms=3000)
    radio, seen = started(net)
    assert net.calls[0] == ("hostname", "cribbage-7qx2")
    assert radio.state == JOINING and radio.address is None
    assert ("sta", "connect", "Kitchen") in net.calls
    run(radio, net, 2900)
    assert radio.state == JOINING
    run(radio, net, 3100)
    assert (radio.state, radio.address) == (HOME, net.home_address)
    assert not net.wlans["ap"].on  # players keep their internet: no access point
    assert seen == [(JOINING, None), (HOME, net.home_address)]
    assert "cribbage-7qx2.local" in radio.hosts() and net.home_address in radio.hosts()


def test_a_refusal_opens_the_own_network_at_once():
    net = FakeNetwork(home_password="another")
    radio, _ = started(net)
    net.now = 100
    radio.step(net.now)
    assert (radio.state, radio.address) == (OWN, ADDRESS)
    assert "wrong_password" in radio.why


def test_a_home_network_that_is_not_there_opens_the_own_network_after_join_ms():
    net = FakeNetwork(home_up=False)
    radio, _ = started(net)
    run(radio, net, JOIN_MS - 100)
    assert radio.state == JOINING
    run(radio, net, JOIN_MS)
    assert (radio.state, radio.address) == (OWN, ADDRESS)
    assert ("sta", "disconnect") in net.calls


def test_the_own_network_tries_the_home_network_again_and_goes_home_when_it_answers():
    net = FakeNetwork(home_up=False)
    radio, seen = started(net)
    run(radio, net, JOIN_MS)
    assert radio.state == OWN
    fell = net.now
    tries = len([c for c in net.calls if c[1] == "connect"])
    run(radio, net, fell + RETRY_MS - 100)
    assert len([c for c in net.calls if c[1] == "connect"]) == tries  # not before RETRY_MS
    run(radio, net, fell + RETRY_MS + JOIN_MS + 200)  # a try that fails: still OWN
    assert len([c for c in net.calls if c[1] == "connect"]) == tries + 1
    assert (radio.state, radio.address) == (OWN, ADDRESS) and net.wlans["ap"].on
    net.home_up = True  # the router is back
    run(radio, net, net.now + RETRY_MS + net.join_ms + 500)
    assert (radio.state, radio.address) == (HOME, net.home_address)
    assert not net.wlans["ap"].on
    assert [s for s, _ in seen] == [JOINING, OWN, HOME]


def test_lost_mid_game_the_board_joins_again_and_comes_back():
    net = FakeNetwork(join_ms=1000)
    radio, seen = started(net)
    run(radio, net, 1500)
    assert radio.state == HOME
    net.home_up = False  # the router restarts
    run(radio, net, 2000)
    assert radio.state == JOINING and radio.address is None
    net.home_up = True
    run(radio, net, 2000 + 1000 + 500)
    assert (radio.state, radio.address) == (HOME, net.home_address)
    assert [s for s, _ in seen] == [JOINING, HOME, JOINING, HOME]


def test_lost_for_good_the_own_network_opens():
    net = FakeNetwork(join_ms=500)
    radio, _ = started(net)
    run(radio, net, 1000)
    net.home_up = False
    run(radio, net, 1000 + JOIN_MS + 500)
    assert (radio.state, radio.address) == (OWN, ADDRESS)


def test_no_radio_is_no_wifi_and_says_why():
    net = FakeNetwork()
    net.broken = True
    radio, seen = started(net)
    assert radio.state == NONE and radio.address is None and "radio" in radio.why
    run(radio, net, 1000)
    assert radio.state == NONE and seen == [(NONE, None)]


def test_an_access_point_that_will_not_take_its_address_is_no_wifi():
    net = FakeNetwork(address="10.0.0.1", settable=False)
    radio, _ = started(net, home=None)
    assert radio.state == NONE and "10.0.0.1" in radio.why


def test_the_address_is_set_when_the_driver_reports_another():
    net = FakeNetwork(address="10.0.0.1")
    radio, _ = started(net, home=None)
    assert radio.address == ADDRESS
    assert ("ap", "ifconfig", (ADDRESS, "255.255.255.0", ADDRESS, ADDRESS)) in net.calls


def test_a_radio_that_fails_under_the_home_network_is_no_wifi():
    net = FakeNetwork(join_ms=100)
    radio, _ = started(net)
    run(radio, net, 200)
    assert radio.state == HOME

    def broken(*args):
        raise OSError("driver")
    net.wlans["sta"].isconnected = broken
    run(radio, net, 300)
    assert radio.state == NONE


def test_each_wifi_state_has_a_pattern_of_its_own_on_the_first_holes():
    import gc

    gc.collect()
    from renderkit import led, make, tone

    from pegboard.radio import LIGHTS
    from pegboard.render import ALERT_RGB, FRONT

    assert len(set([repr(p) for p in LIGHTS.values()])) == len(LIGHTS)  # one each
    red = tone(ALERT_RGB, FRONT)
    for state, pattern in LIGHTS.items():
        cfg, s, r, b = make()
        r.alert(pattern)
        phases, holes = pattern if pattern is not True else ((0, 2, 4), 3)
        for phase in range(10):
            r.draw(b, None, 1600 + phase * 150)
            lit = phase in phases
            for lane in range(3):
                for h in range(1, holes + 1):
                    assert (s[led(lane, h)] == red) == lit, (state, phase, lane, h)
            assert s[led(0, holes + 1)] != red


# -- a home network given while the board runs (Radio.use: the page's form, the `home` verb)

def test_a_home_network_given_on_the_own_network_is_tried_at_once():
    net = FakeNetwork(join_ms=1000)
    radio, seen = started(net, home=None)
    radio.use(HOME_NET)
    run(radio, net, 1500)  # long before RETRY_MS: tried at the first step
    assert (radio.state, radio.address) == (HOME, net.home_address)
    assert seen[-1] == (HOME, net.home_address) and not net.wlans["ap"].on


def test_a_home_network_that_refuses_keeps_the_own_network_and_forget_stops_trying():
    net = FakeNetwork()
    radio, seen = started(net, home=None)
    radio.use(("Kitchen", "not-the-password"))
    run(radio, net, 500)
    assert (radio.state, radio.address) == (OWN, ADDRESS) and net.wlans["ap"].on
    assert [c[2] for c in net.calls if c[1] == "connect"] == ["Kitchen"]
    radio.use(None)
    run(radio, net, RETRY_MS * 3)
    assert [c for c in net.calls if c[1] == "connect"] == [("sta", "connect", "Kitchen")]
    assert radio.state == OWN and seen == [(OWN, ADDRESS)]


def test_a_home_network_given_on_the_home_network_waits_for_the_next_start():
    net = FakeNetwork(join_ms=1000)
    radio, _ = started(net)
    run(radio, net, 1500)
    assert radio.state == HOME
    radio.use(("Other", "other-password"))
    run(radio, net, 3000)
    assert (radio.state, radio.address) == (HOME, net.home_address)  # the phones keep it
    net.home_up = False  # lost: the board joins the network it started with again
    run(radio, net, 3200)
    assert radio.state == JOINING
    assert [c[2] for c in net.calls if c[1] == "connect"] == ["Kitchen", "Kitchen"]


def test_an_open_home_network_is_joined_without_a_key():
    net = FakeNetwork(home_ssid="Cafe", home_password=None, join_ms=1000)
    radio, _ = started(net, home=("Cafe", ""))
    run(radio, net, 1500)
    assert (radio.state, radio.address) == (HOME, net.home_address)
