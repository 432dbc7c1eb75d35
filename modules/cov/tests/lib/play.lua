-- Helpers the module's tests share (not a test file: it declares no tests).

local util = include("@lib/util.lua")

local play = {}

-- A game of `scenario` (the Clash of Armies if not given) in `seating`, with the test
-- fixture's placeholder owner data and `options` besides.
function play.game(t, seating, options, scenario)
  local opts = { seating = seating }
  for k, v in pairs(options or {}) do
    opts[k] = v
  end
  return t:game { scenario = scenario or "clash-of-armies", overlay = "tests/owner-fixture.ron", options = opts }
end

-- `play.game` in `seating`, taking the scenario and the options: (t, scenario, options).
function play.seating(seating)
  return function(t, scenario, options)
    return play.game(t, seating, options, scenario)
  end
end

-- The action that rolls `power`'s chart die (rules/chartdice.lua), among those the
-- decision the game waits for offers any seat, or nil.
function play.chart_roll(g, power)
  local roll
  for _, ask in ipairs(g:prompt().asks) do
    for _, action in ipairs(ask.actions) do
      if action.name == "chart_roll" and action.arg.power == power then
        roll = action
      end
    end
  end
  return roll
end

-- Plays every decision with its first legal action (each seat of a shared decision in
-- turn) until `stop(g)` is true, or the game reaches the state named `stop`. With `dice`,
-- every answer gives them: the rules' rolls during that answer take them first (a fate die
-- made to show the result a test wants).
function play.to(g, stop, dice)
  local done = type(stop) == "function" and stop or function(game)
    return game:state() == stop
  end
  for _ = 1, 3000 do
    if done(g) then
      return
    end
    if g:prompt() == nil then
      error("the game ended before the position the test waits for")
    end
    play.first(g, dice)
  end
  error("the game did not reach the position the test waits for")
end

--- Plays on as `play.to` (with `dice`) until the game waits in state `state` for `seat`.
function play.to_seat(g, state, seat, dice)
  play.to(g, function(game)
    return game:state() == state and game:prompt().seat == seat
  end, dice)
end

--- Plays on as `play.to` (with `dice`) until the game is in the phase named `phase`
--- ("Government Phase").
function play.to_phase(g, phase, dice)
  play.to(g, function(game)
    return game:json().phase == phase
  end, dice)
end

-- Answers the decision the game waits for with the first legal action of its first seat
-- still to answer (with `dice`, as play.to).
function play.first(g, dice)
  local p = g:prompt()
  for _, ask in ipairs(p.asks) do
    if not util.contains(p.answered or {}, ask.seat) then
      local action = ask.actions[1]
      if ask.seat then
        g:act_as(ask.seat, action.name, action.arg, dice)
      else
        g:act(action.name, action.arg, dice)
      end
      return
    end
  end
end

-- Stacks the cards of a solitaire game before its next deal, as a tester would at the
-- table: every card of the draw deck and the discard pile, and every card France and the
-- Coalition hold apart from Leaders and this turn's Initial Phase cards, is taken out of the
-- game; then `cards.FR` and `cards.allies` go to France's and the Coalition's hands (laid
-- out with the deal, the only cards there) and `cards.deck` into the draw deck, top first.
function play.stack(g, cards)
  local leaders = { napoleon = true, alexander = true, metternich = true, castlereagh = true }
  local initial = g:vars().initial_cards or {}
  for _, zone in ipairs({ "deck", "discard", "hand.FR", "hand.allies", "hand.RU", "hand.AU", "hand.BR" }) do
    for _, card in ipairs(g:zone(zone)) do
      if not leaders[card] and not initial[card] then
        g:move_card(card, "removed")
      end
    end
  end
  for _, entry in ipairs({ { "FR", "hand.FR" }, { "allies", "hand.allies" } }) do
    for _, card in ipairs(cards[entry[1]] or {}) do
      g:move_card(card, entry[2])
    end
  end
  local list = cards.deck or {}
  for i = #list, 1, -1 do
    g:move_card(list[i], "deck", "top")
  end
end

-- Lays a side's display by hand: `spaces.A` (and B, D, E) a card face up, or {card} face
-- down; `spaces.C` the draw pile, top first. A card already in a space goes under the pile.
function play.lay(g, side, spaces)
  local z = function(what)
    return "cdgsm." .. side .. "." .. what
  end
  for _, space in ipairs({ "A", "B", "D", "E" }) do
    if spaces[space] ~= nil then
      for _, what in ipairs({ space, space .. ".down" }) do
        for _, card in ipairs(g:zone(z(what))) do
          g:move_card(card, z("C"), "bottom")
        end
      end
    end
  end
  for _, space in ipairs({ "A", "B", "D", "E" }) do
    local spec = spaces[space]
    if type(spec) == "table" then
      g:move_card(spec[1], z(space .. ".down"))
    elseif spec then
      g:move_card(spec, z(space))
    end
  end
  local pile = spaces.C or {}
  for i = #pile, 1, -1 do
    g:move_card(pile[i], z("C"), "top")
  end
end

-- A power plays from its side's display: it answers `name` (with `arg`) and its fate die
-- shows `die`, no card is saved, and the first card offered is played; returns that card.
function play.first_card(g, die, name, arg)
  g:act(name, arg, { die })
  if util.contains(g:legal(), "save_none") then
    g:act("save_none")
  end
  local card = g:prompt().actions[1].arg
  g:act("play", card)
  return card
end

-- The power whose round turn it is negotiates from its side's display: the fate die shows
-- `die`, no card is saved, and the first card offered is played; returns that card (the
-- issue is chosen next).
function play.negotiate_first_card(g, die)
  return play.first_card(g, die, "negotiate")
end

-- Brings the game to `power`'s round turn in `round` with the pass offered, which needs the
-- power's Debate marker on the round track (it debated since it last negotiated): when the
-- pass is not offered, the marker is placed by hand and the input before the turn replayed.
-- Every answer on the way gives `dice` (as play.to).
function play.round_turn_with_pass(g, power, round, dice)
  local function here(game)
    local p = game:prompt()
    if p == nil or game:state() ~= "round_turn" or p.seat ~= power then
      return false
    end
    local flow = game:json().flow
    return game:vars().diplomacy.round == round and flow[#flow].locals.drawn == nil
  end
  play.to(g, here, dice)
  if not util.contains(g:legal(), "pass") then
    g:undo()
    g:place("marker.debate." .. power, "diplomacy_round", tostring(round))
    play.to(g, here, dice)
  end
end

-- The cards of a zone that are not Leaders.
function play.non_leaders(g, zone)
  local leaders = { napoleon = true, alexander = true, metternich = true, castlereagh = true }
  return util.filter(g:zone(zone), function(card)
    return not leaders[card]
  end)
end

-- The log lines containing `text`.
function play.lines(g, text, seat)
  return util.filter(g:log(seat), function(line)
    return string.find(line, text, 1, true) ~= nil
  end)
end

return play
