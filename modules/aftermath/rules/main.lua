-- Napoleon: Aftermath: the rules' hook table. Set-up ("Set Up"): the Great Power cards are
-- dealt face down, one to each player and three set aside; the fifty cards are shuffled and
-- five dealt to each player; then the players dispense the eight markers in turn.

local board = include("rules/board.lua")
local dispense = include("rules/dispense.lua")
local play = include("rules/play.lua")
local deck = include("@lib/deck.lua")
local diplomat = include("bots/diplomat.lua")

local function setup(ctx, scenario, options)
  local first = options.first or "P1"
  if first == "random" then
    first = ctx:roll(2, "the first player") == 1 and "P1" or "P2"
  elseif first ~= "P1" and first ~= "P2" then
    error("first must be P1, P2 or random, not " .. tostring(first), 0)
  end
  ctx.vars.first = first
  ctx:shuffle("powers.aside")
  ctx:deal("powers.aside", "power.P1", 1)
  ctx:deal("powers.aside", "power.P2", 1)
  -- `powers = {P1 = "RU", P2 = "FR"}` deals those Great Powers instead (tests, teaching).
  local wanted = options.powers or {}
  if next(wanted) ~= nil then
    for _, seat in ipairs({ "P1", "P2" }) do
      ctx:move_card(ctx:zone("power." .. seat)[1], "powers.aside", "bottom")
    end
    for seat, power in pairs(wanted) do
      local card = "power." .. tostring(power)
      if ctx.data.cards[card] == nil or (seat ~= "P1" and seat ~= "P2") or ctx:card_zone(card) ~= "powers.aside" then
        error("powers maps P1 and P2 to two of AU, BR, FR, PR and RU, not " .. tostring(seat) .. " = " .. tostring(power), 0)
      end
      ctx:move_card(card, "power." .. seat)
    end
    for _, seat in ipairs({ "P1", "P2" }) do
      if ctx:count("power." .. seat) == 0 then
        ctx:deal("powers.aside", "power." .. seat, 1)
      end
    end
  end
  -- Each player's identity is private: only that seat (and its bot) knows it.
  for _, seat in ipairs({ "P1", "P2" }) do
    local card = ctx:zone("power." .. seat)[1]
    ctx.private[seat] = { power = ctx.data.cards[card].fields.power }
    ctx:tell(seat, "Your Great Power is " .. ctx.data.cards[card].name .. ".")
  end
  ctx:shuffle("deck")
  ctx:deal("deck", "hand.P1", 5)
  ctx:deal("deck", "hand.P2", 5)
  ctx:set_phase("Set-up")
  ctx:log("%s: Great Powers and hands dealt; %s dispenses first.", scenario.name, board.seat_name(ctx, first))
  ctx:call("game")
end

-- A seat may see: the scores each power would have now, and its own power (in its zone).
local function view(ctx, seat)
  local scores = {}
  for _, power in ipairs(board.POWERS) do
    scores[power] = board.score(ctx, power)
  end
  return { scores_by_power = scores, open_provinces = #board.open_provinces(ctx) }
end

-- Invariants: every card somewhere; each power's tokens in one coalition only; every
-- power in the circle once the markers are dispensed; at most one token per province.
local function check(ctx)
  if deck.cards_on_table(ctx) ~= #ctx.data.card_ids then
    return false, "a card is missing from the table"
  end
  for _, seat in ipairs({ "P1", "P2" }) do
    local card = ctx:zone("power." .. seat)[1]
    if card and ctx.data.cards[card].fields.power ~= ctx.private[seat].power then
      return false, seat .. "'s private Great Power is not the card it holds"
    end
  end
  for _, power in ipairs(board.POWERS) do
    local a = ctx:box("coalition.A")
    local b = ctx:box("coalition.B")
    local in_a = (a[power] or 0) + (a[power .. "_half"] or 0) + (a[power .. "_negated"] or 0)
    local in_b = (b[power] or 0) + (b[power .. "_half"] or 0) + (b[power .. "_negated"] or 0)
    if in_a > 0 and in_b > 0 then
      return false, board.name(power) .. " has tokens in both coalitions"
    end
    if ctx:phase() == "Play" and in_a + in_b == 0 then
      return false, board.name(power) .. " has no token in the circle"
    end
  end
  for _, space in ipairs(ctx.data.places.provinces.spaces) do
    local n = 0
    for _, count in pairs(ctx:box("province." .. space.id)) do
      n = n + count
    end
    if n > 1 then
      return false, space.name .. " holds more than one token"
    end
  end
  return true
end

local states = play.states
states.game = dispense.game
states.dispense = dispense.dispense

return {
  setup = setup,
  states = states,
  effects = play.effects,
  view = view,
  check = check,
  bots = { diplomat = diplomat },
}
