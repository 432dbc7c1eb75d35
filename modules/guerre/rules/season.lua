-- La Guerre de l'Empereur: the calendar (1.2, 3.6) and the Combat Seasons' chit cup (4.5,
-- 4.6). Each Combat Season puts in the cup a turn chit for every Player Country and every
-- Controlled NPC; France may go first; each player whose turn ends draws the next chit;
-- the Mutual Build Phase closes the Season. After Fall comes the next year's Winterphase;
-- the game ends at the end of Fall 1815, or when a power reaches its Victory Point
-- objective (7.0, 7.1).

local war = include("rules/war.lua")

local season = {}

season.NEXT = { Spring = "Summer", Summer = "Fall" }

local function name(ctx, seat)
  return ctx.data.seats[seat].name
end

local function date(ctx)
  return string.format("%s %d", ctx.vars.season, ctx.vars.year)
end

--- The powers whose chits go in the cup (4.6): the Player Countries and the Controlled
--- NPCs (an inactive NPC's or an Allied NPC's does not).
function season.in_cup(ctx)
  local powers = {}
  for _, power in ipairs(ctx.vars.powers) do
    local npc = ctx.vars.npc[power]
    if npc == nil or npc == "controlled" then
      powers[#powers + 1] = power
    end
  end
  return powers
end

--- The first power to reach its Victory Point objective (7.0), if any.
function season.victor(ctx)
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx:counter("vp." .. power) >= ctx.data.tables.victory_objective[power] then
      return power
    end
  end
  return nil
end

--- The ranking at the end (7.0): each Player Country by the share of its objective it has.
function season.finish(ctx, why)
  local scores, best, winners = {}, nil, {}
  for _, power in ipairs(ctx.vars.pcs) do
    local vp = ctx:counter("vp." .. power)
    scores[power] = vp
    local share = vp / ctx.data.tables.victory_objective[power]
    if best == nil or share > best then
      best, winners = share, { power }
    elseif share == best then
      winners[#winners + 1] = power
    end
  end
  ctx:game_over({ winners = winners, scores = scores, text = why })
end

season.states = {}

-- The Turn Start Phase: the chits in the cup, then France's option to go first.
local turn_start = {}
season.states.turn_start = turn_start

function turn_start.on_enter(ctx)
  ctx:set_phase(date(ctx) .. ": Turn Start Phase")
  for _, power in ipairs(season.in_cup(ctx)) do
    ctx:move_card("chit." .. power, "cup")
  end
  ctx:shuffle("cup")
end

function turn_start.prompt(ctx)
  -- France is a Player Country in every game (3.0).
  return {
    seat = "FR",
    text = date(ctx) .. ": 4.6 France may take the first Player Turn, or put its chit in the cup and draw",
    actions = {
      { name = "first", label = "France goes first" },
      { name = "draw", label = "Draw the first chit" },
    },
  }
end

local function draw(ctx)
  if ctx:count("cup") == 0 then
    ctx:replace("build")
    return
  end
  local chit = ctx:zone("cup")[1]
  ctx:move_card(chit, "drawn", "bottom")
  ctx:flip(chit, true)
  local power = chit:match("^chit%.(.+)$")
  ctx:log(string.format("%s: %s's chit is drawn.", date(ctx), name(ctx, power)))
  season.begin_turn(ctx, power)
end

--- A power's turn: a Player Country's begins with its Turn Preparation (4.7); a Controlled
--- NPC's with its turn proper (only PCs roll on the Event Table, 4.72).
function season.begin_turn(ctx, power)
  if ctx.vars.pcs_set[power] then
    ctx:replace("preparation", { power = power })
  else
    ctx:replace("player_turn", { power = power })
  end
end

function turn_start.first(ctx)
  ctx:move_card("chit.FR", "drawn", "bottom")
  ctx:flip("chit.FR", true)
  ctx:log(string.format("%s: France takes the first Player Turn.", date(ctx)))
  season.begin_turn(ctx, "FR")
end

function turn_start.draw(ctx)
  draw(ctx)
end

-- A Player Turn, played at the table; its player draws the next chit when it ends.
local player_turn = {}
season.states.player_turn = player_turn

function player_turn.on_enter(ctx)
  ctx:set_phase(string.format("%s: %s's Player Turn", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.prompt(ctx)
  local power = ctx.locals.power
  local seat = ctx.vars.npc[power] == "controlled" and ctx.vars.controller[power] or power
  local actions = {
    { name = "done", label = "End the turn and draw" },
    { name = "naval", label = "Resolve a naval combat (5.44)" },
    { name = "battle", label = "Resolve a land battle (5.61)" },
  }
  -- The Continental System (4.24, 4.243): France declares or cancels it; another player
  -- (Britain excepted: the embargo is against it) joins or leaves it of his own will (the
  -- conditions are the table's).
  if ctx.vars.pcs_set[power] then
    for _, target in ipairs(war.declarable(ctx, power)) do
      actions[#actions + 1] = { name = "declare_war", arg = target, label = "Declare war on " .. name(ctx, target) }
    end
    local embargo = ctx.vars.embargo
    if power == "FR" then
      actions[#actions + 1] = embargo.FR and { name = "cancel_embargo", label = "Cancel the Continental System" }
        or { name = "declare_embargo", label = "Declare the Continental System (French troops in Berlin, or allied with Prussia)" }
    elseif embargo.FR and power ~= "GB" then
      actions[#actions + 1] = embargo[power] and { name = "leave_embargo", label = "Leave the Continental System" }
        or { name = "join_embargo", label = "Join the Continental System" }
    end
  end
  return {
    seat = seat,
    text = string.format("%s: %s's Player Turn (played at the table): end it and draw the next chit", date(ctx), name(ctx, power)),
    actions = actions,
  }
end

function player_turn.declare_war(ctx, target)
  war.declare(ctx, ctx.locals.power, target)
end

-- Back from a calculator or a War Declaration Step: victory is checked at the end of each
-- War Declaration Step (7.0).
function player_turn.on_resume(ctx, result)
  if result and result.war ~= nil then
    local victor = season.victor(ctx)
    if victor then
      season.finish(ctx, string.format("%s reaches its objective of %d VP", name(ctx, victor), ctx.data.tables.victory_objective[victor]))
    end
  end
end

function player_turn.battle(ctx)
  ctx:call("land_battle", { moving = ctx.locals.power, n = 1 })
end

function player_turn.naval(ctx)
  ctx:call("naval", { attacker = ctx.locals.power, n = 1 })
end

function player_turn.declare_embargo(ctx)
  ctx.vars.embargo.FR = true
  ctx:log(string.format("%s: France declares the Continental System.", date(ctx)))
end

function player_turn.cancel_embargo(ctx)
  ctx.vars.embargo = {}
  ctx:log(string.format("%s: France cancels the Continental System.", date(ctx)))
end

function player_turn.join_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = true
  ctx:log(string.format("%s: %s joins the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.leave_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = nil
  ctx:log(string.format("%s: %s leaves the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.done(ctx)
  -- Victory is checked at the end of each War Declaration Step (7.0): here at the end of
  -- the Player Turn that holds it (RULES-GAPS.md).
  local victor = season.victor(ctx)
  if victor then
    season.finish(ctx, string.format("%s reaches its objective of %d VP", name(ctx, victor), ctx.data.tables.victory_objective[victor]))
    return
  end
  draw(ctx)
end

-- The Mutual "Build" Phase (1.212, 6.0): each player in turn buys his new units, every
-- purchase at its list cost (the Player Mat's) raised 5% a province of its Line of
-- Communications (6.12), paid in gold; then the Season ends.
local build = {}
season.states.build = build

--- The adjusted cost of units of `list` cost built `loc` provinces from home (6.12): 5%
--- more a province, rounded to the nearest gold, a half up (RULES-GAPS.md).
function season.build_cost(list, loc)
  return (list * (100 + 5 * loc) + 50) // 100
end

function build.on_enter(ctx)
  ctx:set_phase(date(ctx) .. ": Mutual Build Phase")
  ctx.locals.n = 1
end

function build.prompt(ctx)
  local power = ctx.vars.pcs[ctx.locals.n]
  local actions = { { name = "built", label = "My builds are done" } }
  -- No other expenditure while a deficit lasts (4.221).
  if ctx:counter("gold." .. power) > 0 then
    table.insert(actions, 1, { name = "build", label = "Buy units (their list cost and Line of Communications)" })
  end
  return {
    seat = power,
    text = string.format("%s: 6.0 Mutual Build Phase: %s buys new units (%d gold)", date(ctx), name(ctx, power), ctx:counter("gold." .. power)),
    actions = actions,
  }
end

function build.build(ctx)
  ctx:call("purchase", { power = ctx.vars.pcs[ctx.locals.n], n = 1 })
end

function build.on_resume(ctx, result)
  if result == nil then
    return
  end
  local power = ctx.vars.pcs[ctx.locals.n]
  local cost = season.build_cost(result.list, result.loc)
  if cost > ctx:counter("gold." .. power) then
    ctx:log(string.format("%s cannot pay %d gold for units of %d at a Line of Communications of %d.", name(ctx, power), cost, result.list, result.loc))
    return
  end
  local now = ctx:add_counter("gold." .. power, -cost)
  ctx:log(string.format("%s buys units of list cost %d at a Line of Communications of %d for %d gold: %d gold left.",
    name(ctx, power), result.list, result.loc, cost, now))
end

function build.built(ctx)
  if ctx.locals.n < #ctx.vars.pcs then
    ctx.locals.n = ctx.locals.n + 1
    return
  end
  season.end_season(ctx)
end

-- A purchase's figures: the list cost of the units, then the length of their Line of
-- Communications (0 at home; provinces of Spain, Portugal, Russia, the Ottoman Empire and
-- Africa counted twice, 6.12).
local purchase = {}
season.states.purchase = purchase

function purchase.prompt(ctx)
  local first = ctx.locals.n == 1
  return {
    seat = ctx.locals.power,
    text = first and "6.12 The list cost of the units (from the Player Mat)"
      or "6.12 The Line of Communications in provinces (0 at home; Spain, Portugal, Russia, the Ottoman Empire and Africa count twice)",
    actions = {
      { name = "set", min = first and 1 or 0, max = first and 500 or 50, label = first and "List cost" or "Provinces" },
      { name = "cancel", label = "Buy nothing" },
    },
  }
end

function purchase.set(ctx, value)
  if ctx.locals.n == 1 then
    ctx.locals.list, ctx.locals.n = value, 2
    return
  end
  ctx:pop({ list = ctx.locals.list, loc = value })
end

function purchase.cancel(ctx)
  ctx:pop(nil)
end

--- The Season's end (6.2): the chits come out of the play; after Fall, the Winterphase of
--- the next year (or the end of the game after Fall 1815); else the next Season.
function season.end_season(ctx)
  for _, chit in ipairs(ctx:zone("drawn")) do
    ctx:move_card(chit, "chits", "bottom")
  end
  if ctx.vars.season == "Fall" then
    if ctx.vars.year >= 1815 then
      season.finish(ctx, "The game ends after the Fall 1815 Season (1.2): the players ranked by the share of their objectives (7.0)")
      return
    end
    ctx.vars.year = ctx.vars.year + 1
    ctx.vars.season = "Winterphase"
    ctx:set_turn(ctx:turn() + 1)
    ctx:set_phase(date(ctx))
    ctx:replace("tax", { n = 1 })
    return
  end
  ctx.vars.season = season.NEXT[ctx.vars.season]
  ctx:set_turn(ctx:turn() + 1)
  ctx:replace("turn_start")
end

return season
