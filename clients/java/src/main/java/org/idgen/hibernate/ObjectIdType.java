package org.idgen.hibernate;

import org.idgen.ObjectId;

/** The Hibernate type of {@link ObjectId}, applied to every attribute of that class by {@link IdgenTypeContributor}. */
public final class ObjectIdType extends IdgenUserType<ObjectId>
{
	/** The type, as Hibernate instantiates it. */
	public ObjectIdType()
	{
		super(ObjectId.class, ObjectId.TYPE, ObjectId::parse);
	}
}
