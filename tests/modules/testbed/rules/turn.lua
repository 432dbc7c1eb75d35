-- Testbed rules: the "turn" state, where a seat plays a card, passes, bids, rolls or marches.

local modifiers = include("@lib/modifiers.lua")

local turn = {}

local function other(seat)
  return seat == "A" and "B" or "A"
end

local function next_turn(ctx)
  ctx:replace("turn", { seat = other(ctx.locals.seat) })
  ctx:set_turn(ctx:turn() + 1)
end

function turn.prompt(ctx)
  local seat = ctx.locals.seat
  local actions = {}
  for _, card in ipairs(ctx:zone("hand." .. seat)) do
    actions[#actions + 1] = { name = "play", arg = card, card = card }
  end
  actions[#actions + 1] = { name = "pass", label = "Pass" }
  actions[#actions + 1] = { name = "bid", min = 0, max = 3 }
  actions[#actions + 1] = { name = "recruit", label = "Roll for troops" }
  if seat == "A" then
    local _, at = ctx:space_of("block.A")
    for _, space in ipairs(ctx:neighbors("land", at)) do
      actions[#actions + 1] = { name = "march", arg = space, place = "land", space = space }
    end
  end
  if ctx.scenario == "scout" and seat == "A" then
    actions[#actions + 1] = { name = "scout", label = "Show or hide Alpha's army to Beta" }
  end
  actions[#actions + 1] = { name = "detour", label = "Take a detour" }
  actions[#actions + 1] = { name = "council", label = "Call a council" }
  -- An action that gives something up asks the person to agree first.
  actions[#actions + 1] = { name = "concede", label = "Concede", confirm = "The other seat wins the game." }
  -- Under fog of war (the scout scenario), what Alpha does is its own: Beta reads only that
  -- Alpha moved, never where its army went (the lines Alpha's action writes for everyone
  -- still show). A move under fog is a private input, and its line is told to those who see it.
  local private = nil
  if ctx.scenario == "scout" and seat == "A" then
    private = "makes its move"
  end
  return { seat = seat, text = "Play a card, pass, bid, recruit or march", actions = actions, private = private }
end

-- Play a card: score its value (asked for if not entered), discard it, draw one.
function turn.play(ctx, card)
  local seat = ctx.locals.seat
  local value = ctx.data.cards[card].fields.value
  local zone, index = ctx:card_zone(card)
  ctx:log("%s plays %s (card %d of %s) for %d VP.", ctx.data.seats[seat].name, ctx.data.cards[card].name, index,
    ctx.data.zones[zone].name, value)
  ctx:move_card(card, "discard", "top")
  ctx:flip(card, true)
  local vp = ctx:add_counter("vp." .. seat, value)
  ctx:place("marker." .. seat, "score", tostring(math.min(vp, 6)))
  if ctx:count("deck") > 0 then
    ctx:deal("deck", "hand." .. seat, 1)
  end
  ctx.vars.passes = 0
  next_turn(ctx)
end

-- Concede: the other seat wins.
function turn.concede(ctx)
  local seat = ctx.locals.seat
  local a, b = ctx:counter("vp.A"), ctx:counter("vp.B")
  ctx:log("%s concedes.", ctx.data.seats[seat].name)
  ctx:game_over({ winner = other(seat), text = "The other seat conceded.", scores = { A = a, B = b } })
end

-- Pass; two passes in a row end the game.
function turn.pass(ctx)
  ctx.vars.passes = ctx.vars.passes + 1
  if ctx.vars.passes >= 2 then
    local a, b = ctx:counter("vp.A"), ctx:counter("vp.B")
    local winner = nil
    if a ~= b then
      winner = a > b and "A" or "B"
    end
    ctx:game_over({ winner = winner, text = string.format("Final score %d to %d.", a, b), scores = { A = a, B = b } })
    return
  end
  next_turn(ctx)
end

-- Bid: remember the highest bid on the bid counter.
function turn.bid(ctx, n)
  ctx:set_counter("bid", math.max(n, ctx:counter("bid")))
  next_turn(ctx)
end

-- Recruit: roll a die; on 4+ an infantry unit joins Alpha's army from the pool, with the
-- recruit table's bonus for that roll; on a 1 a cavalry unit joins the pool.
function turn.recruit(ctx)
  local roll = ctx:roll(6, "recruits")
  if roll >= 4 and ctx:units("pool", "inf") > 0 then
    ctx:move_units("pool", "army.A", "inf", 1)
    ctx:add_units("army.A", "inf", ctx.data.tables.recruit_bonus[tostring(roll)])
  elseif roll == 1 then
    ctx:add_units("pool", "cav", 1)
  end
  local pool = ctx:box("pool")
  ctx:log(string.format("Pool: %d infantry, %d cavalry (%d units).", pool.inf or 0, pool.cav or 0, ctx:units("pool")))
  next_turn(ctx)
end

-- March Alpha's block to a neighbouring space; entering East scores that space's VP.
function turn.march(ctx, space)
  ctx:place("block.A", "land", space)
  local here = ctx:pieces_at("land", space)
  local line = string.format("Alpha's army marches to %s (%d piece(s) there).", space, #here)
  if ctx.scenario == "scout" then
    ctx:tell("A", line)
  else
    ctx:log(line)
  end
  if space == "east" then
    ctx:add_counter("vp.A", ctx.data.places.land.space.east.props.vp)
  end
  next_turn(ctx)
end

-- Scout (the scout scenario): Alpha shows its army to Beta through the fog, or hides it
-- again; the same seat goes on.
function turn.scout(ctx)
  if ctx.vars.spotted then
    ctx:hide_piece("block.A", "B")
    ctx.vars.spotted = nil
  else
    ctx:show_piece("block.A", "B")
    ctx.vars.spotted = true
  end
end

-- Detour: a state pushed on top of this one, which resumes after it.
function turn.detour(ctx)
  ctx:push("detour", { from = ctx.locals.seat })
end

-- Council: a procedure that returns the points each seat won; they are scored, then the
-- turn passes.
function turn.council(ctx)
  ctx:call("council")
end

function turn.on_resume(ctx, won)
  if won == nil then
    return -- back from a detour: the same seat goes on
  end
  for _, seat in ipairs(ctx:seats()) do
    if won[seat] > 0 then
      local sum = modifiers.sum(ctx.data.seats[seat].name .. "'s score")
      sum:add(ctx:counter("vp." .. seat), "before")
      sum:add(won[seat], "won in council")
      ctx:set_counter("vp." .. seat, sum:log(ctx))
    end
  end
  next_turn(ctx)
end

return turn
