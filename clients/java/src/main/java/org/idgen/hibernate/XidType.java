package org.idgen.hibernate;

import org.idgen.Xid;

/** The Hibernate type of {@link Xid}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class XidType extends IdgenUserType<Xid>
{
	/** The type, as Hibernate instantiates it. */
	public XidType()
	{
		super(Xid.class, Xid.TYPE, Xid::parse);
	}
}
