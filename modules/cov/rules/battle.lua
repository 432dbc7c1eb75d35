-- Congress of Vienna: a battle (16.4, step 4). The French army (or armies) of the front
-- against the Allied ones; on Front G the two sides of the War of 1812 box. Each side's
-- Initial Battle DRM (units, fleets, Military Support, the Generalissimo's headquarters,
-- terrain), then the military cards each side lays in secret, then 2d6 each (the best of
-- two with NAPOLEON and BERTHIER, or WELLINGTON), the losses the Battle DRM Track gives
-- for each final total, and the result: the side that inflicts more losses wins, the
-- loser retreats one space and the winner advances into it; equal losses are a draw.

local util = include("@lib/util.lua")
local modifiers = include("@lib/modifiers.lua")
local powers = include("rules/powers.lua")
local cards = include("rules/cards.lua")
local forces = include("rules/forces.lua")
local solitaire = include("rules/solitaire.lua")
local fog = include("rules/fog.lua")
local war = include("rules/war.lua")

local steps = include("@lib/steps.lua")

-- 22.1 (L1994): in Allied-power solitaire each neutral military card of the Coalition goes
-- to a random front with a battle, drawn once a War Phase, when the Coalition first lays
-- cards with the card among them (a card it gains later, at the next battle); it may be laid
-- on that front only. The draws are logged.
local function assign_neutral_fronts(ctx, zone)
  if ctx.vars.seating ~= "solo-allied-power" then
    return
  end
  local state = ctx.vars.war
  state.neutral_fronts = state.neutral_fronts or {}
  local fronts = {}
  for _, front in ipairs(forces.FRONTS) do
    if war.battle_on(ctx, front) then
      fronts[#fronts + 1] = front
    end
  end
  for _, card in ipairs(ctx:zone(zone)) do
    local f = ctx.data.cards[card].fields
    if state.neutral_fronts[card] == nil and #fronts > 0 and ctx:known("card", card, "nation")
      and f.nation == "neutral" and ctx:known("card", card, "military") and f.military == true then
      local front = #fronts == 1 and fronts[1]
        or fronts[ctx:roll(#fronts, string.format("the front of %s (22.1)", cards.name(ctx, card)))]
      state.neutral_fronts[card] = front
      ctx:log(string.format("22.1: %s, a neutral card of the Coalition, goes to the battle on Front %s.",
        cards.name(ctx, card), front))
    end
  end
end

-- The front a neutral card of the Coalition went to (22.1), or nil.
local function neutral_front(ctx, card)
  return ((ctx.vars.war or {}).neutral_fronts or {})[card]
end

local battle = {}

local SIDE_NAMES = { FR = "France", allied = "the Allies" }
local SIDE_TITLES = { FR = "France", allied = "The Allies" }

local name = powers.name

local function other(side)
  return side == "FR" and "allied" or "FR"
end

local function b(ctx)
  return ctx.vars.war.battle
end

-- The armies of a side on a front that take part, as blocks.
local function armies(ctx, front, side)
  return forces.armies(ctx, function(id, piece)
    return piece.props.front == front and forces.side(piece.owner) == side and forces.active(ctx, id)
  end)
end

-- The boxes a side fights from.
local function boxes(ctx, side)
  local state = b(ctx)
  if state.front == "G" then
    return { forces.W1812 }
  end
  local list = {}
  for _, block in ipairs(state.armies[side]) do
    list[#list + 1] = forces.box(block)
  end
  return list
end

-- The powers fighting on a side.
local function side_powers(ctx, side)
  local state = b(ctx)
  if state.front == "G" then
    return { side == "FR" and "FR" or "BR" }
  end
  local list = {}
  for _, block in ipairs(state.armies[side]) do
    local owner = forces.owner(ctx, block)
    if not util.contains(list, owner) then
      list[#list + 1] = owner
    end
  end
  return list
end

local function units_of_side(ctx, side)
  local total = 0
  for _, box in ipairs(boxes(ctx, side)) do
    total = total + forces.units(ctx, box, side)
  end
  return total
end

-- The front-most space a side holds (nearest the enemy), for terrain and retreat.
local function front_space(ctx, front, side)
  local line = forces.line(ctx, front)
  local best
  for i, space in ipairs(line) do
    for _, block in ipairs(b(ctx).armies[side]) do
      if forces.space(ctx, block) == space then
        if best == nil or (side == "FR" and i < best) or (side == "allied" and i > best) then
          best = i
        end
      end
    end
  end
  return best and line[best] or nil
end

local function space_props(ctx, front, space)
  return ctx.data.places["front." .. string.lower(front)].space[space].props
end

local function space_name(ctx, front, space)
  return ctx.data.places["front." .. string.lower(front)].space[space].name
end

-- The Initial Battle DRM of a side (L509-L513, L533-L535): +1 a unit (fleets count), +3 a
-- Military Support marker and the Generalissimo's headquarters, +3 a defender in its
-- homeland, -3 an attacker into the mountains, the Spanish guerrilla for the Allies in
-- Spain and an amphibious landing (owner data), and the turn's Initial Situation card.
local function initial_drm(ctx, side)
  local state = b(ctx)
  local drm = ctx.data.tables.battle_drm
  local sum = modifiers.sum(SIDE_NAMES[side])
  local units = units_of_side(ctx, side)
  sum:add(units * drm.unit, "units")
  local supports = 0
  for _, box in ipairs(boxes(ctx, side)) do
    supports = supports + forces.supports(ctx, box, side)
  end
  sum:add_if(supports > 0, supports * drm.support, "Military Support")
  local g = ctx.vars.generalissimo
  if g and side == "allied" and util.contains(state.armies.allied, g.army) then
    sum:add(drm.generalissimo, "the Generalissimo's headquarters")
  end
  local space = state.space
  if state.front ~= "G" and state.defender and space then
    local props = space_props(ctx, state.front, space)
    if side == state.defender and util.contains(side_powers(ctx, side), props.homeland) then
      sum:add(drm.homeland, "homeland")
    end
    if side ~= state.defender and props.mountain == true then
      sum:add(drm.mountain, "attacking into the mountains")
    end
    if side == "allied" and props.guerrilla == true then
      sum:add(drm.guerrilla, "the Spanish guerrilla")
    end
    if side ~= state.defender and props.landing == true then
      sum:add(drm.landing, "an amphibious landing")
    end
  end
  for _, entry in ipairs((ctx.vars.turn_rules or {}).battle_drm or {}) do
    if entry.side == side and (entry.front == nil or entry.front == state.front) then
      sum:add(entry.drm, "the Initial Situation card")
    end
  end
  return sum
end

-- The military cards a side laid, with their DRM (L537, L545-L551): a card adds to its own
-- side or takes from the enemy's (some let the player choose).
local function card_terms(ctx, side, sum)
  local state = b(ctx)
  for _, laid in ipairs(state.cards[side]) do
    if laid.target == "own" then
      sum:add(ctx.data.cards[laid.card].fields.drm, cards.name(ctx, laid.card))
    end
  end
  for _, laid in ipairs(state.cards[other(side)]) do
    if laid.target == "enemy" then
      sum:add(-math.abs(ctx.data.cards[laid.card].fields.drm), cards.name(ctx, laid.card))
    end
  end
end

local function laid_card(ctx, side, card)
  for _, laid in ipairs(b(ctx).cards[side]) do
    if laid.card == card then
      return true
    end
  end
  return false
end

-- 2d6, or the better of two 2d6 (L515, L539).
local function dice(ctx, side, best_of_two)
  local first = ctx:roll(6, powers.possessive(SIDE_NAMES[side]) .. " battle dice") + ctx:roll(6, powers.possessive(SIDE_NAMES[side]) .. " battle dice")
  if not best_of_two then
    return first, string.format("%d", first)
  end
  local second = ctx:roll(6, powers.possessive(SIDE_NAMES[side]) .. " second roll") + ctx:roll(6, powers.possessive(SIDE_NAMES[side]) .. " second roll")
  return math.max(first, second), string.format("the better of %d and %d", first, second)
end

local function halve(n)
  local half = math.floor(math.abs(n) / 2)
  return n < 0 and -half or half
end

local add_vp = powers.score

-- The VP of a battle won (L521): a major battle (every army engaged had 4 units or more
-- when it began), with NAPOLEON present, gives each winning power and each losing power the
-- table's VP; without him they are halved.
local function battle_vp(ctx, winner)
  local state = b(ctx)
  local major = true
  for _, n in pairs(state.start_units) do
    if n < 4 then
      major = false
    end
  end
  local key = major and (winner == "allied" and "allied_major" or "french_major") or "minor"
  local napoleon = laid_card(ctx, "FR", "napoleon")
  local table_vp = ctx.data.tables.battle_vp
  local gain, loss = table_vp[key .. "/winner"], table_vp[key .. "/loser"]
  if not napoleon then
    gain, loss = halve(gain), halve(loss)
  end
  local why = string.format("%s battle on Front %s%s", major and "A major" or "A", state.front,
    napoleon and ", Napoleon present" or ", without Napoleon (halved)")
  for _, power in ipairs(side_powers(ctx, winner)) do
    add_vp(ctx, power, gain, why)
  end
  for _, power in ipairs(side_powers(ctx, other(winner))) do
    add_vp(ctx, power, loss, why)
  end
end

-- Control of a space passes from the loser to the winner (L523, L527): its VP change hands
-- and a card symbol printed on it changes its power's Card Hand Size.
local function control_change(ctx, front, space, winner)
  local props = space_props(ctx, front, space)
  local vp = props.vp
  local why = string.format("%s changes hands", space_name(ctx, front, space))
  for _, power in ipairs(side_powers(ctx, winner)) do
    add_vp(ctx, power, vp, why)
  end
  for _, power in ipairs(side_powers(ctx, other(winner))) do
    add_vp(ctx, power, -vp, why)
  end
  local symbol = props.card_symbol
  if symbol and symbol ~= "none" and ctx.data.seats[symbol] then
    local delta = forces.side(symbol) == winner and 1 or -1
    local size = ctx:add_counter("hand_size." .. symbol, delta)
    ctx:log(string.format("%s bears %s's card symbol: %s's Card Hand Size %d.", space_name(ctx, front, space),
      name(ctx, symbol), name(ctx, symbol), size))
  end
end

-- Moves an army block, with the Generalissimo marker and the Military Operations placed
-- with it.
local function move_army(ctx, block, space)
  local place = ctx:space_of(block)
  ctx:place(block, place, space)
  local g = ctx.vars.generalissimo
  if g and g.army == block then
    ctx:place("generalissimo." .. g.power, place, space)
  end
  for _, op in ipairs(ctx.vars.war.ops) do
    if op.target == block and op.marker ~= "napoleon" then
      ctx:place(op.marker, place, space)
    end
  end
end

-- The loser retreats one space to its rear; the winner advances into the space it left
-- (L517). Returns false when the map does not know the space behind (the players decide).
local function retreat(ctx, loser, rear)
  local state = b(ctx)
  local vacated = state.space_of[loser]
  for _, block in ipairs(state.armies[loser]) do
    if forces.space(ctx, block) == vacated then
      move_army(ctx, block, rear)
    end
  end
  for _, block in ipairs(state.armies[other(loser)]) do
    move_army(ctx, block, vacated)
  end
  ctx:log(string.format("%s retreat from %s to %s; %s advance into %s.", SIDE_TITLES[loser],
    space_name(ctx, state.front, vacated), space_name(ctx, state.front, rear), SIDE_NAMES[other(loser)],
    space_name(ctx, state.front, vacated)))
  control_change(ctx, state.front, vacated, other(loser))
end

-- The War of 1812 (L557-L559): a win moves the status marker one space toward the winner;
-- the US Militia is brought back to one cube after the battle.
local function war_of_1812_after(ctx, winner)
  if winner then
    local _, at = ctx:space_of("marker.war_of_1812")
    local spaces = ctx.data.places.war_of_1812_status.spaces
    local index
    for i, space in ipairs(spaces) do
      if space.id == at then
        index = i
      end
    end
    local to = spaces[index + (winner == "allied" and 1 or -1)]
    if to then
      ctx:place("marker.war_of_1812", "war_of_1812_status", to.id)
      ctx:log(string.format("The War of 1812 Status marker moves to %s.", to.name))
    else
      ctx:log("The War of 1812 Status marker is at the end of the spaces the module knows; it stays.")
    end
  end
  local militia = ctx:units(forces.W1812, "US_militia")
  if militia > 1 then
    ctx:move_units(forces.W1812, "pool.FR", "US_militia", militia - 1)
    ctx:log(string.format("US Militia demobilization: %d %s to the force pool, one stays.", militia - 1,
      militia - 1 == 1 and "cube returns" or "cubes return"))
  end
  if laid_card(ctx, "allied", "tecumseh") or laid_card(ctx, "FR", "tecumseh") then
    local die = ctx:roll(6, "Tecumseh: is he killed?")
    if ctx.data.tables.tecumseh_killed[tostring(die)] then
      ctx:move_card("tecumseh", "removed")
      ctx:log(string.format("Tecumseh: the die shows %d; he is killed and leaves the game.", die))
    else
      ctx:log(string.format("Tecumseh: the die shows %d; he stays in the game.", die))
    end
  end
end

-- The power that allocates a side's losses: France; for the Allies the Generalissimo's
-- power when its headquarters is in the battle (L519), else the power with the most units
-- there (RULES-GAPS.md).
local function chooser(ctx, side)
  if side == "FR" then
    return "FR"
  end
  local state = b(ctx)
  if state.front == "G" then
    return "BR"
  end
  local g = ctx.vars.generalissimo
  if g and util.contains(state.armies.allied, g.army) then
    return g.power
  end
  local best, most = nil, -1
  for _, block in ipairs(state.armies.allied) do
    local n = forces.units(ctx, forces.box(block))
    if n > most then
      best, most = forces.owner(ctx, block), n
    end
  end
  return best
end

-- A battle on a front (L502-L517), step by step; a withdrawal before it (the players' answer)
-- passes the later steps by but the last.
local function withdrew(ctx)
  return ctx.locals.withdrew == true
end

-- The answers that come to a step: the defender's withdrawal, or the space the loser retreats
-- to where the map does not know it.
local function retreat_answer(ctx, result)
  local state = b(ctx)
  if result.key == "withdraw" and result.choice then
    ctx.locals.withdrew = true
    local loser = state.defender
    local rear = forces.rear(ctx, ctx.locals.front, state.space_of[loser], loser)
    ctx:log(string.format("%s withdraw before the battle (the losses and cards of a withdrawal are the Rules of Play's: apply them by hand).",
      SIDE_TITLES[loser]))
    if rear == nil then
      return battle.ask_rear(ctx, loser)
    end
    retreat(ctx, loser, rear)
  elseif result.key == "rear" then
    retreat(ctx, ctx.locals.loser, result.choice)
  end
end

battle.battle = steps.procedure("Battle", {
  {
    name = "the armies",
    run = function(ctx)
      local locals = ctx.locals
      local front = locals.front
      ctx.vars.war.battle = { front = front, cards = { FR = {}, allied = {} }, armies = {}, space_of = {}, start_units = {} }
      local state = b(ctx)
      for _, side in ipairs({ "FR", "allied" }) do
        state.armies[side] = front == "G" and {} or armies(ctx, front, side)
      end
      if front ~= "G" and (#state.armies.FR == 0 or #state.armies.allied == 0) then
        ctx:log(string.format("Front %s: a Military Operation stands there, but one side has no army on the front: no battle.", front))
        ctx:pop({})
        return steps.stop()
      end
      local attackers = {}
      for _, op in ipairs(ctx.vars.war.ops) do
        if op.front == front then
          attackers[forces.side(op.owner)] = true
        end
      end
      if front == "G" and ctx:space_of("issue.mil_op_us") == "front.g" then
        attackers.FR = true
      end
      if attackers.FR and not attackers.allied then
        state.defender = "allied"
      elseif attackers.allied and not attackers.FR then
        state.defender = "FR"
      end
      if front ~= "G" then
        for _, side in ipairs({ "FR", "allied" }) do
          state.space_of[side] = front_space(ctx, front, side)
          for _, block in ipairs(state.armies[side]) do
            state.start_units[block] = forces.units(ctx, forces.box(block))
          end
        end
        state.space = state.defender and state.space_of[state.defender] or nil
      end
      local title = front == "G" and "the War of 1812 box" or ctx.data.places["front." .. string.lower(front)].name
      ctx:log(string.format("Battle on %s: %s%s.", title,
        state.defender and (SIDE_NAMES[other(state.defender)] .. " attack") or "both sides attack",
        state.space and (" " .. space_name(ctx, front, state.space)) or ""))
    end,
  },
  {
    name = "withdrawal",
    calls = "decide",
    run = function(ctx)
      local locals = ctx.locals
      local state = b(ctx)
      locals.seats = battle.card_seats(ctx)
      if state.defender and locals.front ~= "G" and not (ctx.vars.turn_rules or {}).no_withdrawals then
        local power = chooser(ctx, state.defender)
        return steps.call("decide", { power = power, key = "withdraw",
          chart = state.defender == "FR" and { n = 1, why = "21.10.1, Step 15" } or nil,
          text = string.format("Front %s: %s may fight or withdraw before the battle.", locals.front, SIDE_NAMES[state.defender]),
          options = { { arg = false, label = "Fight" }, { arg = true, label = "Withdraw (the Rules of Play's withdrawal, asked as it is done)" } } })
      end
    end,
    resume = retreat_answer,
  },
  {
    -- Each seat lays its cards in secret; in solitaire, with the option person-first, the
    -- first side's cards are shown before the other side lays its own.
    name = "battle cards",
    calls = "battle_cards",
    each = function(ctx)
      if withdrew(ctx) then
        return {}
      end
      local first, list = solitaire.first_side(ctx), {}
      for i, entry in ipairs(ctx.locals.seats) do
        list[#list + 1] = entry
        local next_entry = ctx.locals.seats[i + 1]
        if first and entry.side == first and next_entry and next_entry.side ~= first then
          list[#list + 1] = { show = first }
        end
      end
      return list
    end,
    label = function(ctx, entry)
      return entry.seat or ("the cards of " .. SIDE_NAMES[entry.show] .. " shown")
    end,
    run = function(ctx, entry)
      if entry.show then
        battle.reveal(ctx, ctx.locals.seats, entry.show)
        return
      end
      ctx.private[entry.seat].battle = {}
      if entry.side == "allied" then
        assign_neutral_fronts(ctx, entry.zone or ("hand." .. entry.seat))
      end
      return steps.call("battle_cards", { seat = entry.seat, side = entry.side, powers = entry.powers,
        front = ctx.locals.front, zone = entry.zone })
    end,
  },
  {
    name = "the cards shown",
    run = function(ctx)
      if not withdrew(ctx) then
        battle.reveal(ctx, ctx.locals.seats)
      end
    end,
  },
  {
    name = "Fog of War",
    each = function(ctx)
      return withdrew(ctx) and {} or solitaire.fog_sides(ctx)
    end,
    label = function(ctx, side)
      return SIDE_NAMES[side]
    end,
    run = function(ctx, side)
      fog.draw(ctx, side, battle.fog_view(ctx))
    end,
  },
  {
    name = "the fight",
    run = function(ctx)
      if not withdrew(ctx) then
        battle.fight(ctx)
      end
    end,
  },
  {
    name = "losses",
    calls = "battle_losses",
    each = function(ctx)
      return withdrew(ctx) and {} or { "FR", "allied" }
    end,
    skip = function(ctx, side)
      return not (b(ctx).losses[side] > 0 and units_of_side(ctx, side) > 0)
    end,
    run = function(ctx, side)
      return steps.call("battle_losses", { side = side, power = chooser(ctx, side), left = b(ctx).losses[side],
        boxes = boxes(ctx, side) })
    end,
  },
  {
    name = "the result",
    calls = "decide",
    run = function(ctx)
      if withdrew(ctx) then
        return
      end
      local locals = ctx.locals
      local state = b(ctx)
      local winner = state.winner
      if locals.front == "G" then
        war_of_1812_after(ctx, winner)
      elseif winner then
        battle_vp(ctx, winner)
        local loser = other(winner)
        local rear = forces.rear(ctx, locals.front, state.space_of[loser], loser)
        if rear == nil then
          return battle.ask_rear(ctx, loser)
        end
        locals.loser = loser
        retreat(ctx, loser, rear)
      end
    end,
    resume = retreat_answer,
  },
  {
    name = "the cards to the discard",
    run = function(ctx)
      local state = b(ctx)
      for _, side in ipairs({ "FR", "allied" }) do
        for _, laid in ipairs(state.cards[side]) do
          if ctx:card_zone(laid.card) ~= "removed" then
            ctx:move_card(laid.card, "discard")
          end
        end
      end
    end,
  },
  finish = function()
    return {}
  end,
})

-- The map does not know the space behind the loser: the players say where it retreats (a
-- question for a step of the battle to return).
function battle.ask_rear(ctx, loser)
  local state = b(ctx)
  ctx.locals.loser = loser
  local place = "front." .. string.lower(state.front)
  local options = {}
  for _, space in ipairs(ctx.data.places[place].spaces) do
    if space.id ~= state.space_of[loser] then
      options[#options + 1] = { arg = space.id, place = place, space = space.id, label = space.name }
    end
  end
  return steps.call("decide", { power = chooser(ctx, loser), key = "rear", everyone = true,
    text = string.format("The module's map does not know the space behind %s: where does %s retreat?",
      space_name(ctx, state.front, state.space_of[loser]), SIDE_NAMES[loser]), options = options })
end

-- The seats that lay military cards, side by side: France first, then each Allied seat,
-- each from its own hand. In solitaire the Coalition plays one hand (L1100): one seat lays
-- its cards for every Allied power in the battle (the power that allocates its losses), and
-- the side a person plays comes first (option solitaire.battle_cards).
function battle.card_seats(ctx)
  local list = {}
  local order = solitaire.first_side(ctx) == "allied" and { "allied", "FR" } or { "FR", "allied" }
  for _, side in ipairs(order) do
    local by_seat = {}
    for _, power in ipairs(side_powers(ctx, side)) do
      local seat = powers.seat(ctx, power)
      local zone = "hand." .. seat
      if solitaire.displays(ctx) then
        seat = side == "FR" and "FR" or chooser(ctx, side)
        zone = solitaire.hand_of_side(side == "FR" and "FR" or "allies")
      end
      if by_seat[seat] == nil then
        by_seat[seat] = { seat = seat, side = side, powers = {}, zone = zone }
        list[#list + 1] = by_seat[seat]
      end
      table.insert(by_seat[seat].powers, power)
    end
  end
  return list
end

-- What Fog of War needs to know of the battle being fought (rules/fog.lua).
function battle.fog_view(ctx)
  local state = b(ctx)
  local front = state.front
  local function powers_on(f, side)
    if f == front then
      return side_powers(ctx, side)
    elseif side == "FR" then
      return { "FR" }
    end
    local list = {}
    for _, block in ipairs(armies(ctx, f, "allied")) do
      list[#list + 1] = forces.owner(ctx, block)
    end
    return list
  end
  local later, seen = {}, false
  for _, f in ipairs(forces.FRONTS) do
    if seen and war.battle_on(ctx, f) then
      later[#later + 1] = f
    end
    seen = seen or f == front
  end
  -- The cards each side laid itself, counted before any Fog of War card joins them.
  ctx.locals.fog_counts = ctx.locals.fog_counts or { FR = #state.cards.FR, allied = #state.cards.allied }
  return {
    front = front,
    laid = state.cards,
    counts = ctx.locals.fog_counts,
    later = later,
    hands = { FR = solitaire.hand_of_side("FR"), allied = solitaire.hand_of_side("allies") },
    usable = function(card, side, f)
      local fields = ctx.data.cards[card].fields
      local nation = fields.nation
      return fields.military == true and util.contains(fields.fronts, f)
        and (nation == "neutral" or util.contains(powers_on(f, side), nation))
    end,
  }
end

-- Dice, totals and losses.
function battle.fight(ctx)
  local state = b(ctx)
  local totals, losses = {}, {}
  for _, side in ipairs({ "FR", "allied" }) do
    local sum = initial_drm(ctx, side)
    card_terms(ctx, side, sum)
    local best = side == "FR" and laid_card(ctx, "FR", "napoleon") and laid_card(ctx, "FR", "berthier")
      or side == "allied" and laid_card(ctx, "allied", "wellington")
    local roll, words = dice(ctx, side, best)
    sum:add(roll, "2d6 (" .. words .. ")")
    -- The Battle DRM Track starts at 0 (RULES-GAPS.md).
    sum:clamp(0, nil)
    totals[side] = sum:total()
    ctx:log(string.format("%s: %s.", SIDE_TITLES[side], sum:explain()))
  end
  for _, side in ipairs({ "FR", "allied" }) do
    -- The losses a side's total inflicts on the other side.
    losses[other(side)] = ctx.data.tables.battle_losses[tostring(totals[side])]
  end
  state.totals, state.losses = totals, losses
  if losses.allied > losses.FR then
    state.winner = "FR"
  elseif losses.FR > losses.allied then
    state.winner = "allied"
  end
  ctx:log(string.format("Losses: France %d, the Allies %d: %s.", losses.FR, losses.allied,
    state.winner and (SIDE_NAMES[state.winner] .. " win") or "a draw"))
end

-- A seat lays its military cards for a battle, in secret, one at a time.
battle.battle_cards = {}

-- Whether a side may use `card` in this battle: a military card (not known yet: offered,
-- and asked when laid), of a power fighting on the side or neutral.
local function usable(ctx, card, side_list, front)
  local f = ctx.data.cards[card]
  if ctx:known("card", card, "military") and f.fields.military ~= true then
    return false
  end
  if ctx:known("card", card, "fronts") and not util.contains(f.fields.fronts, front) then
    return false
  end
  if ctx:known("card", card, "nation") then
    local nation = f.fields.nation
    if nation == "neutral" and not util.contains(side_list, "FR") then
      local assigned = neutral_front(ctx, card)
      return assigned == nil or assigned == front
    end
    return nation == "neutral" or util.contains(side_list, nation)
  end
  return true
end

function battle.battle_cards.prompt(ctx)
  local locals = ctx.locals
  local laid = {}
  for _, entry in ipairs(ctx.private[locals.seat].battle or {}) do
    laid[entry.card] = true
  end
  local actions = {}
  for _, card in ipairs(ctx:zone(locals.zone or ("hand." .. locals.seat))) do
    if not laid[card] and usable(ctx, card, locals.powers, locals.front) then
      local target = ctx:known("card", card, "drm_target") and ctx.data.cards[card].fields.drm_target or nil
      if target == "choice" then
        actions[#actions + 1] = { name = "lay", arg = { card = card, target = "own" }, card = card,
          label = cards.name(ctx, card) .. ": for your side" }
        actions[#actions + 1] = { name = "lay", arg = { card = card, target = "enemy" }, card = card,
          label = cards.name(ctx, card) .. ": against the enemy" }
      else
        actions[#actions + 1] = { name = "lay", arg = { card = card }, card = card, label = cards.name(ctx, card) }
      end
    end
  end
  actions[#actions + 1] = { name = "done", label = "Done: reveal when every side is done" }
  return {
    seat = locals.seat,
    text = string.format("Battle on Front %s: lay military cards for %s, face down (%d laid).", locals.front,
      SIDE_NAMES[locals.side], #(ctx.private[locals.seat].battle or {})),
    actions = actions,
    -- Laid face down: the other seats read only that cards are laid, never which (nor a
    -- bot's reasons) until the reveal.
    private = "lays military cards face down",
  }
end

function battle.battle_cards.lay(ctx, arg)
  local locals = ctx.locals
  local f = ctx.data.cards[arg.card].fields
  if f.military ~= true then
    error(string.format("%s is not a military card", cards.name(ctx, arg.card)), 0)
  end
  if not util.contains(f.fronts, locals.front) then
    error(string.format("%s may not be used on Front %s", cards.name(ctx, arg.card), locals.front), 0)
  end
  local assigned = neutral_front(ctx, arg.card)
  if assigned and assigned ~= locals.front and not util.contains(locals.powers, "FR") then
    error(string.format("%s went to the battle on Front %s (22.1): it may not be used on Front %s", cards.name(ctx, arg.card),
      assigned, locals.front), 0)
  end
  local target = f.drm_target
  if target == "choice" then
    target = arg.target or "own"
  end
  local list = ctx.private[locals.seat].battle
  list[#list + 1] = { card = arg.card, target = target, drm = f.drm }
  ctx:tell(locals.seat, string.format("You lay %s face down.", cards.name(ctx, arg.card)))
end

function battle.battle_cards.done(ctx)
  ctx:pop({})
end

-- Every seat has laid its cards: they are revealed together (those of `side` alone, when
-- it is given: the side that laid first in solitaire); a seat's cards are shown once.
function battle.reveal(ctx, seats, side)
  local state = b(ctx)
  ctx.locals.shown = ctx.locals.shown or {}
  for _, entry in ipairs(seats) do
    if (side == nil or entry.side == side) and not ctx.locals.shown[entry.seat] then
      ctx.locals.shown[entry.seat] = true
      battle.show_seat(ctx, state, entry)
    end
  end
end

-- A seat's laid cards join its side's cards in the battle, and the log names them.
function battle.show_seat(ctx, state, entry)
  local names = {}
  for _, laid in ipairs(ctx.private[entry.seat].battle or {}) do
    table.insert(state.cards[entry.side], { card = laid.card, target = laid.target })
    names[#names + 1] = string.format("%s (%s%d)", cards.name(ctx, laid.card), laid.target == "enemy" and "-" or "+",
      math.abs(laid.drm))
  end
  ctx.private[entry.seat].battle = nil
  local who = solitaire.displays(ctx) and (entry.side == "FR" and "France" or "The Coalition") or ctx.data.seats[entry.seat].name
  ctx:log(string.format("%s reveals %s.", who, #names > 0 and table.concat(names, ", ") or "no military card"))
end

-- A side removes its losses to the force pools, one unit at a time (L519).
battle.battle_losses = {}

function battle.battle_losses.prompt(ctx)
  local locals = ctx.locals
  local actions = {}
  for _, box in ipairs(locals.boxes) do
    local _, kinds = forces.units(ctx, box, locals.side)
    for _, entry in ipairs(kinds) do
      actions[#actions + 1] = { name = "remove", arg = { box = box, kind = entry.kind }, box = box,
        label = string.format("A %s from %s", ctx.data.unit_kinds[entry.kind].name, ctx.data.boxes[box].name) }
    end
  end
  return {
    seat = powers.seat(ctx, locals.power),
    text = string.format("%sRemove %d more losses of %s.", powers.as_power(ctx, locals.power), locals.left,
      SIDE_NAMES[locals.side]),
    actions = actions,
  }
end

function battle.battle_losses.remove(ctx, arg)
  local locals = ctx.locals
  local pool = "pool." .. forces.owner_of_kind(ctx, arg.kind)
  ctx:move_units(arg.box, pool, arg.kind, 1)
  locals.left = locals.left - 1
  -- The losses taken so far, by kind (the Allied bot's Step 19 takes them in turn).
  locals.taken = locals.taken or {}
  locals.taken[arg.kind] = (locals.taken[arg.kind] or 0) + 1
  ctx:log(string.format("A %s of %s is lost.", ctx.data.unit_kinds[arg.kind].name, ctx.data.boxes[arg.box].name))
  local remaining = 0
  for _, box in ipairs(locals.boxes) do
    remaining = remaining + forces.units(ctx, box, locals.side)
  end
  if locals.left == 0 or remaining == 0 then
    ctx:pop({})
  end
end

-- For bots: a side's Initial Battle DRM in the battle being fought, and whether a side may
-- use a card on a front.
battle.initial_drm = initial_drm
battle.usable = usable
battle.space_props = space_props

return battle
